import { AUDIT_LOG } from '../ports/audit-log.port.js';
import { CLOCK } from '../ports/clock.port.js';
import { KEY_SERVER } from '../ports/key-server.port.js';
import { KEY_SET_SOURCE } from '../ports/key-set-source.port.js';
import { LOGGER } from '../ports/logger.port.js';
import { METRICS } from '../ports/metrics.port.js';
import { RANDOM } from '../ports/random.port.js';
import { REPLAY_CACHE } from '../ports/replay-cache.port.js';
import { SESSION_STORE } from '../ports/session-store.port.js';
import { THROTTLE_STORE } from '../ports/throttle-store.port.js';
import { type Token, token } from '../ports/token.js';
import { WRITER_LOCKS } from '../ports/writer-locks.port.js';
import type {
  AclUseCases,
  AliasUseCases,
  AuditTrail,
  AuditUseCases,
  CryptoUseCases,
  DestructionRecords,
  GatewayServices,
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

/**
 * Every token of the container, declared here once. The types tie each list to what it names: a port
 * of GatewayAdapters without its token, or a field of GatewayServices without its token, does not
 * compile; the container binds, the transports receive, and the container test checks these lists.
 */
export const CONFIG = token<GatewayConfig>('GatewayConfig');

/** The ports, bound to the adapters the configuration chose (their tokens live with the ports). */
export const ADAPTER_TOKENS = {
  clock: CLOCK,
  random: RANDOM,
  logger: LOGGER,
  keyServer: KEY_SERVER,
  sessionStore: SESSION_STORE,
  replayCache: REPLAY_CACHE,
  throttleStore: THROTTLE_STORE,
  auditLog: AUDIT_LOG,
  metrics: METRICS,
  writerLocks: WRITER_LOCKS,
  keySets: KEY_SET_SOURCE,
} as const satisfies { readonly [K in keyof GatewayAdapters]-?: Token<GatewayAdapters[K]> };

/** The use cases: the services object the transports receive has exactly these fields. */
export const SERVICE_TOKENS = {
  sessions: token<SessionUseCases>('SessionUseCases'),
  loginThrottle: token<LoginThrottle>('LoginThrottle'),
  keyServerCalls: token<KeyServerCalls>('KeyServerCalls'),
  keys: token<KeyUseCases>('KeyUseCases'),
  acl: token<AclUseCases>('AclUseCases'),
  aliases: token<AliasUseCases>('AliasUseCases'),
  crypto: token<CryptoUseCases>('CryptoUseCases'),
  principals: token<PrincipalUseCases>('PrincipalUseCases'),
  groups: token<GroupUseCases>('GroupUseCases'),
  roles: token<RoleUseCases>('RoleUseCases'),
  health: token<HealthUseCases>('HealthUseCases'),
  trust: token<TrustUseCases>('TrustUseCases'),
  server: token<ServerUseCases>('ServerUseCases'),
  policy: token<PolicyUseCases>('PolicyUseCases'),
  proofs: token<ProofChecker>('ProofChecker'),
  auditTrail: token<AuditTrail>('AuditTrail'),
  audit: token<AuditUseCases>('AuditUseCases'),
  destructionRecords: token<DestructionRecords>('DestructionRecords'),
  publishedJwks: token<PublishedJwks>('PublishedJwks'),
} as const satisfies { readonly [K in keyof GatewayServices]-?: Token<GatewayServices[K]> };

/** Every token the container binds, derived from the lists above. */
export const ALL_TOKENS: readonly Token<unknown>[] = [CONFIG, ...Object.values(ADAPTER_TOKENS), ...Object.values(SERVICE_TOKENS)];
