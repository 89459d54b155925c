/** keygate's public API for embedding the gateway in another Node service. */

export { MemoryAuditLog } from './adapters/audit-log/memory-audit-log.js';
export { ManualClock } from './adapters/clock/manual-clock.js';
export { SystemClock } from './adapters/clock/system-clock.js';
export { EmbeddedKeyServer } from './adapters/key-server/embedded-key-server.js';
export { TlsKeyServer, type TlsKeyServerOptions } from './adapters/key-server/tls-key-server.js';
export { MemorySessionStore } from './adapters/session-store/memory-session-store.js';
export type { GatewayOverrides } from './app/adapters.js';
export { type GatewayConfig, type GatewayConfigInput, parseGatewayConfig } from './app/config/config.js';
export { configFromEnv } from './app/config/from-env.js';
export { createGateway, type Gateway } from './app/create-gateway.js';
export type { AuditRecord } from './domain/audit/audit.js';
export type { ErrorCode } from './domain/errors/error-codes.js';
export { KeygateError } from './domain/errors/keygate-error.js';
export type { WrappedKey } from './domain/keywrap/keywrap.js';
export { unwrapKey } from './domain/keywrap/unwrap-key.js';
export { ConfigError } from './keyserver/config-error.js';
export type { AuditLog } from './ports/audit-log.port.js';
export type { Clock } from './ports/clock.port.js';
export type { KeyServer, KeyServerConnection } from './ports/key-server.port.js';
export type { Logger } from './ports/logger.port.js';
export type { SessionStore } from './ports/session-store.port.js';
