import 'reflect-metadata';
import { Container, type ResolutionContext } from 'inversify';
import { MemoryAuditLog } from '../adapters/audit-log/memory-audit-log.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { PinoLogger } from '../adapters/logger/pino-logger.js';
import { CryptoRandom } from '../adapters/random/crypto-random.js';
import { MemorySessionStore } from '../adapters/session-store/memory-session-store.js';
import { AUDIT_LOG, type AuditLog } from '../ports/audit-log.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { KEY_SERVER, type KeyServer } from '../ports/key-server.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { RANDOM, type Random } from '../ports/random.port.js';
import { SESSION_STORE, type SessionStore } from '../ports/session-store.port.js';
import type { Token } from '../ports/token.js';
import {
  AclUseCases,
  AuditTrail,
  AuditUseCases,
  CertificateUseCases,
  CryptoUseCases,
  GroupUseCases,
  HealthUseCases,
  KeyUseCases,
  PolicyUseCases,
  PrincipalUseCases,
  ProofChecker,
  RoleUseCases,
  ServerUseCases,
  SessionUseCases,
  TrustUseCases,
} from '../use-cases/index.js';
import type { GatewayServices } from '../use-cases/index.js';
import type { AuditVerifyKeys } from '../use-cases/audit.js';
import { MemoryReplayCache } from '../adapters/replay-cache/memory-replay-cache.js';
import { REPLAY_CACHE, type ReplayCache } from '../ports/replay-cache.port.js';
import type { GatewayConfig } from './config.js';
import { GATEWAY_VERSION } from './version.js';
import {
  ACL_USE_CASES,
  AUDIT_TRAIL,
  AUDIT_USE_CASES,
  CERTIFICATE_USE_CASES,
  CONFIG,
  CRYPTO_USE_CASES,
  GROUP_USE_CASES,
  HEALTH_USE_CASES,
  KEY_USE_CASES,
  POLICY_USE_CASES,
  PRINCIPAL_USE_CASES,
  PROOF_CHECKER,
  ROLE_USE_CASES,
  SERVER_USE_CASES,
  SESSION_USE_CASES,
  TRUST_USE_CASES,
} from './tokens.js';

/** Parts an embedding service or a test may supply instead of the defaults. */
export interface GatewayOverrides {
  readonly clock?: Clock;
  readonly random?: Random;
  readonly logger?: Logger;
  readonly sessionStore?: SessionStore;
  readonly replayCache?: ReplayCache;
  readonly keyServer?: KeyServer;
  /** An opened audit store (createGateway opens the configured one when absent). */
  readonly auditLog?: AuditLog;
  /** What GET /api/audit/verify trusts (createGateway takes the configured keys when absent). */
  readonly auditVerifyKeys?: AuditVerifyKeys;
}

/** Typed resolution: the token carries the type, so a wrong binding fails to compile. */
export function resolve<T>(context: ResolutionContext | Container, id: Token<T>): T {
  return context.get<T>(id);
}

function bindValue<T>(container: Container, id: Token<T>, value: T): void {
  container.bind<T>(id).toConstantValue(value);
}

function bindFactory<T>(container: Container, id: Token<T>, factory: (context: ResolutionContext) => T): void {
  container.bind<T>(id).toDynamicValue(factory).inSingletonScope();
}

/**
 * The composition root's container: ports to adapters, use cases over ports. The key server comes in
 * ready-made (it may need asynchronous start-up); everything else is a factory binding.
 */
export function buildContainer(config: GatewayConfig, keyServer: KeyServer, overrides: GatewayOverrides): Container {
  const container = new Container();
  bindValue(container, CONFIG, config);
  bindValue(container, KEY_SERVER, keyServer);
  bindFactory(container, CLOCK, () => overrides.clock ?? new SystemClock());
  bindFactory(container, RANDOM, () => overrides.random ?? new CryptoRandom());
  bindFactory(container, LOGGER, (ctx) => overrides.logger ?? new PinoLogger({ level: resolve(ctx, CONFIG).logLevel }));
  bindFactory(container, SESSION_STORE, (ctx) => overrides.sessionStore ?? new MemorySessionStore(resolve(ctx, CLOCK)));
  bindFactory(container, AUDIT_LOG, () => overrides.auditLog ?? new MemoryAuditLog());
  bindFactory(
    container,
    REPLAY_CACHE,
    (ctx) => overrides.replayCache ?? new MemoryReplayCache(resolve(ctx, CLOCK), { maxEntries: resolve(ctx, CONFIG).replayCacheSize }),
  );
  bindFactory(container, PROOF_CHECKER, (ctx) => new ProofChecker(resolve(ctx, CLOCK), resolve(ctx, REPLAY_CACHE)));
  bindFactory(
    container,
    SESSION_USE_CASES,
    (ctx) =>
      new SessionUseCases({
        keyServer: resolve(ctx, KEY_SERVER),
        store: resolve(ctx, SESSION_STORE),
        clock: resolve(ctx, CLOCK),
        random: resolve(ctx, RANDOM),
        logger: resolve(ctx, LOGGER),
        sessionTtlMs: resolve(ctx, CONFIG).sessionTtlSeconds * 1000,
      }),
  );
  bindFactory(container, KEY_USE_CASES, (ctx) => new KeyUseCases({ keyServer: resolve(ctx, KEY_SERVER), random: resolve(ctx, RANDOM) }));
  bindFactory(container, ACL_USE_CASES, (ctx) => new AclUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, CRYPTO_USE_CASES, (ctx) => new CryptoUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, PRINCIPAL_USE_CASES, (ctx) => new PrincipalUseCases({ keyServer: resolve(ctx, KEY_SERVER), random: resolve(ctx, RANDOM) }));
  bindFactory(container, GROUP_USE_CASES, (ctx) => new GroupUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, ROLE_USE_CASES, (ctx) => new RoleUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, CERTIFICATE_USE_CASES, (ctx) => new CertificateUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, TRUST_USE_CASES, (ctx) => new TrustUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, SERVER_USE_CASES, (ctx) => new ServerUseCases({ keyServer: resolve(ctx, KEY_SERVER), gatewayVersion: GATEWAY_VERSION }));
  bindFactory(container, POLICY_USE_CASES, (ctx) => new PolicyUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(
    container,
    HEALTH_USE_CASES,
    (ctx) =>
      new HealthUseCases({
        keyServer: resolve(ctx, KEY_SERVER),
        store: resolve(ctx, SESSION_STORE),
        auditLog: resolve(ctx, AUDIT_LOG),
        version: GATEWAY_VERSION,
      }),
  );
  bindFactory(
    container,
    AUDIT_TRAIL,
    (ctx) => new AuditTrail({ log: resolve(ctx, AUDIT_LOG), clock: resolve(ctx, CLOCK), random: resolve(ctx, RANDOM), logger: resolve(ctx, LOGGER) }),
  );
  bindFactory(
    container,
    AUDIT_USE_CASES,
    (ctx) =>
      new AuditUseCases({
        log: resolve(ctx, AUDIT_LOG),
        keyServer: resolve(ctx, KEY_SERVER),
        ...(overrides.auditVerifyKeys ? { verifyKeys: overrides.auditVerifyKeys } : {}),
      }),
  );
  return container;
}

/** Every token the container must resolve; the container test walks this list. */
export const ALL_TOKENS = [
  CONFIG,
  KEY_SERVER,
  CLOCK,
  RANDOM,
  LOGGER,
  SESSION_STORE,
  REPLAY_CACHE,
  PROOF_CHECKER,
  AUDIT_LOG,
  SESSION_USE_CASES,
  KEY_USE_CASES,
  ACL_USE_CASES,
  CRYPTO_USE_CASES,
  PRINCIPAL_USE_CASES,
  GROUP_USE_CASES,
  ROLE_USE_CASES,
  CERTIFICATE_USE_CASES,
  TRUST_USE_CASES,
  SERVER_USE_CASES,
  POLICY_USE_CASES,
  HEALTH_USE_CASES,
  AUDIT_TRAIL,
  AUDIT_USE_CASES,
] as const;

/** The plain services object the transports receive: use cases only, never the container. */
export function resolveServices(container: Container): GatewayServices {
  return {
    sessions: resolve(container, SESSION_USE_CASES),
    keys: resolve(container, KEY_USE_CASES),
    acl: resolve(container, ACL_USE_CASES),
    crypto: resolve(container, CRYPTO_USE_CASES),
    principals: resolve(container, PRINCIPAL_USE_CASES),
    groups: resolve(container, GROUP_USE_CASES),
    roles: resolve(container, ROLE_USE_CASES),
    health: resolve(container, HEALTH_USE_CASES),
    certificates: resolve(container, CERTIFICATE_USE_CASES),
    trust: resolve(container, TRUST_USE_CASES),
    server: resolve(container, SERVER_USE_CASES),
    policy: resolve(container, POLICY_USE_CASES),
    proofs: resolve(container, PROOF_CHECKER),
    auditTrail: resolve(container, AUDIT_TRAIL),
    audit: resolve(container, AUDIT_USE_CASES),
  };
}
