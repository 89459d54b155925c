import { ObservedAuditLog } from '../adapters/audit-log/observed-audit-log.js';
import { meterAuditWrites } from '../adapters/metrics/audit-log-metering.js';
import type { AuditWriteObserver } from '../ports/audit-log.port.js';
import 'reflect-metadata';
import { Container, type ResolutionContext } from 'inversify';
import { ObservedKeyServer } from '../adapters/key-server/observed-key-server.js';
import { meterKeyServerCalls } from '../adapters/metrics/key-server-metering.js';
import { AUDIT_LOG } from '../ports/audit-log.port.js';
import { CLOCK } from '../ports/clock.port.js';
import { KEY_SERVER, type KeyServerObserver } from '../ports/key-server.port.js';
import { KEY_SET_SOURCE } from '../ports/key-set-source.port.js';
import { LOGGER } from '../ports/logger.port.js';
import { METRICS, NoMetrics } from '../ports/metrics.port.js';
import { RANDOM } from '../ports/random.port.js';
import { REPLAY_CACHE } from '../ports/replay-cache.port.js';
import { SESSION_STORE } from '../ports/session-store.port.js';
import { THROTTLE_STORE } from '../ports/throttle-store.port.js';
import type { Token } from '../ports/token.js';
import { WRITER_LOCKS } from '../ports/writer-locks.port.js';
import type { AuditVerifyKeys } from '../use-cases/audit.js';
import { auditStoreHealth, HealthSignal, keyServerHealth } from '../use-cases/health-signal.js';
import {
  AclUseCases,
  AliasUseCases,
  AuditTrail,
  AuditUseCases,
  CryptoUseCases,
  DestructionRecords,
  type GatewayServices,
  GroupUseCases,
  HealthUseCases,
  KeyServerCalls,
  KeyUseCases,
  LoginThrottle,
  PolicyUseCases,
  PrincipalUseCases,
  ProofChecker,
  PublishedJwks,
  RoleUseCases,
  ServerUseCases,
  SessionUseCases,
  TrustUseCases,
} from '../use-cases/index.js';
import type { GatewayAdapters } from './adapters.js';
import type { GatewayConfig } from './config/config.js';
import { ADAPTER_TOKENS, CONFIG, SERVICE_TOKENS } from './tokens.js';
import { GATEWAY_VERSION } from './version.js';

/** Typed resolution: the token carries the type, so a wrong binding fails to compile. */
export function resolve<T>(context: ResolutionContext | Container, id: Token<T>): T {
  return context.get<T>(id);
}

/** What the health check learns from the gateway's own calls: the key server's and the audit store's state. */
interface HealthSignals {
  readonly keyServer: HealthSignal;
  readonly auditStore: HealthSignal;
}

/** How each use case is built over the ports: one entry per field of GatewayServices (the type demands it). */
const serviceFactories = (
  signals: HealthSignals,
  auditVerifyKeys: AuditVerifyKeys | undefined,
): { readonly [K in keyof GatewayServices]-?: (ctx: ResolutionContext) => GatewayServices[K] } => ({
  sessions: (ctx) =>
    new SessionUseCases({
      keyServer: resolve(ctx, KEY_SERVER),
      store: resolve(ctx, SESSION_STORE),
      clock: resolve(ctx, CLOCK),
      random: resolve(ctx, RANDOM),
      logger: resolve(ctx, LOGGER),
      sessionTtlMs: resolve(ctx, CONFIG).sessionTtlSeconds * 1000,
      throttle: resolve(ctx, SERVICE_TOKENS.loginThrottle),
      maxSessionsPerPrincipal: resolve(ctx, CONFIG).maxSessionsPerPrincipal,
      throttleStore: resolve(ctx, THROTTLE_STORE),
      sessionMintsPerMinute: resolve(ctx, CONFIG).sessionMintsPerMinute,
      keySets: resolve(ctx, KEY_SET_SOURCE),
      replayCache: resolve(ctx, REPLAY_CACHE),
    }),
  loginThrottle: (ctx) => {
    const config = resolve(ctx, CONFIG);
    return new LoginThrottle({
      store: resolve(ctx, THROTTLE_STORE),
      clock: resolve(ctx, CLOCK),
      nameFailures: config.throttleNameFailures,
      addressFailures: config.throttleAddressFailures,
      windowMs: config.throttleWindowSeconds * 1000,
      ratePerSecond: config.rateLimit,
      metrics: resolve(ctx, METRICS),
    });
  },
  keyServerCalls: (ctx) => new KeyServerCalls({ keyServer: resolve(ctx, KEY_SERVER) }),
  keys: (ctx) => new KeyUseCases({ keyServer: resolve(ctx, KEY_SERVER), random: resolve(ctx, RANDOM) }),
  acl: (ctx) => new AclUseCases({ keyServer: resolve(ctx, KEY_SERVER) }),
  aliases: (ctx) => new AliasUseCases({ keyServer: resolve(ctx, KEY_SERVER) }),
  crypto: (ctx) => new CryptoUseCases({ keyServer: resolve(ctx, KEY_SERVER) }),
  principals: (ctx) =>
    new PrincipalUseCases({
      keyServer: resolve(ctx, KEY_SERVER),
      random: resolve(ctx, RANDOM),
      sessions: resolve(ctx, SESSION_STORE),
      // The same instance as the login's, so a password proof shares its cap of logins in flight.
      passwords: resolve(ctx, SERVICE_TOKENS.sessions),
    }),
  groups: (ctx) => new GroupUseCases({ keyServer: resolve(ctx, KEY_SERVER) }),
  roles: (ctx) => new RoleUseCases({ keyServer: resolve(ctx, KEY_SERVER) }),
  health: (ctx) =>
    new HealthUseCases({
      keyServer: resolve(ctx, KEY_SERVER),
      store: resolve(ctx, SESSION_STORE),
      auditLog: resolve(ctx, AUDIT_LOG),
      metrics: resolve(ctx, METRICS),
      writers: resolve(ctx, WRITER_LOCKS),
      keySets: resolve(ctx, KEY_SET_SOURCE),
      version: GATEWAY_VERSION,
      signals,
    }),
  trust: (ctx) => new TrustUseCases({ keyServer: resolve(ctx, KEY_SERVER), sessions: resolve(ctx, SESSION_STORE) }),
  server: (ctx) => new ServerUseCases({ keyServer: resolve(ctx, KEY_SERVER), gatewayVersion: GATEWAY_VERSION }),
  policy: (ctx) => new PolicyUseCases({ keyServer: resolve(ctx, KEY_SERVER) }),
  proofs: (ctx) => new ProofChecker(resolve(ctx, CLOCK), resolve(ctx, REPLAY_CACHE)),
  auditTrail: (ctx) =>
    new AuditTrail({
      log: resolve(ctx, AUDIT_LOG),
      clock: resolve(ctx, CLOCK),
      random: resolve(ctx, RANDOM),
      logger: resolve(ctx, LOGGER),
    }),
  destructionRecords: (ctx) =>
    new DestructionRecords({
      keyServer: resolve(ctx, KEY_SERVER),
      log: resolve(ctx, AUDIT_LOG),
      clock: resolve(ctx, CLOCK),
      random: resolve(ctx, RANDOM),
      logger: resolve(ctx, LOGGER),
    }),
  publishedJwks: (ctx) => new PublishedJwks({ keyServer: resolve(ctx, KEY_SERVER), clock: resolve(ctx, CLOCK) }),
  audit: (ctx) =>
    new AuditUseCases({
      log: resolve(ctx, AUDIT_LOG),
      keyServer: resolve(ctx, KEY_SERVER),
      ...(auditVerifyKeys === undefined ? {} : { verifyKeys: auditVerifyKeys }),
    }),
});

function keysOf<T extends object>(record: T): (keyof T)[] {
  return Object.keys(record) as (keyof T)[];
}

/**
 * The composition root's container: each port bound to the adapter openAdapters chose, each use case
 * a singleton factory over the ports. What it binds is read from the token lists (tokens.ts).
 */
export function buildContainer(config: GatewayConfig, adapters: GatewayAdapters, auditVerifyKeys?: AuditVerifyKeys): Container {
  const container = new Container();
  // The gateway's own calls report the key server's and the audit store's state to the health check;
  // the key server's calls and the audit log's writes are metered by the same one decorator each.
  const signals: HealthSignals = { keyServer: new HealthSignal(), auditStore: new HealthSignal() };
  const keyServerObservers: KeyServerObserver[] = [keyServerHealth(signals.keyServer)];
  const auditObservers: AuditWriteObserver[] = [auditStoreHealth(signals.auditStore, { downOnly: true })];
  if (!(adapters.metrics instanceof NoMetrics)) {
    keyServerObservers.unshift(meterKeyServerCalls(adapters.metrics));
    auditObservers.unshift(meterAuditWrites(adapters.metrics));
  }
  const observed: GatewayAdapters = {
    ...adapters,
    keyServer: new ObservedKeyServer(adapters.keyServer, keyServerObservers),
    auditLog: new ObservedAuditLog(adapters.auditLog, auditObservers),
  };
  const factories = serviceFactories(signals, auditVerifyKeys);
  container.bind(CONFIG).toConstantValue(config);
  for (const key of keysOf(ADAPTER_TOKENS)) container.bind(ADAPTER_TOKENS[key]).toConstantValue(observed[key]);
  for (const key of keysOf(SERVICE_TOKENS)) container.bind(SERVICE_TOKENS[key]).toDynamicValue(factories[key]).inSingletonScope();
  return container;
}

/** The plain services object the transports receive: use cases only, never the container. */
export function resolveServices(container: Container): GatewayServices {
  return Object.fromEntries(keysOf(SERVICE_TOKENS).map((key) => [key, container.get(SERVICE_TOKENS[key])])) as unknown as GatewayServices;
}
