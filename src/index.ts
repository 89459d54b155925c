/** keygate's public API for embedding the gateway in another Node service. */
export { createGateway, type Gateway } from './app/create-gateway.js';
export { ConfigError, parseGatewayConfig, type GatewayConfig, type GatewayConfigInput } from './app/config.js';
export { configFromEnv } from './app/env-config.js';
export type { GatewayOverrides } from './app/container.js';
export { ManualClock } from './adapters/clock/manual-clock.js';
export { SystemClock } from './adapters/clock/system-clock.js';
export { MemorySessionStore } from './adapters/session-store/memory-session-store.js';
export { EmbeddedKeyServer } from './adapters/key-server/embedded-key-server.js';
export { TlsKeyServer, type TlsKeyServerOptions } from './adapters/key-server/tls-key-server.js';
export { unwrapKey } from './domain/keywrap/unwrap-key.js';
export type { WrappedKey } from './domain/keywrap/keywrap.js';
export { KeygateError } from './domain/errors/keygate-error.js';
export type { ErrorCode } from './domain/errors/error-codes.js';
export type { Clock } from './ports/clock.port.js';
export type { KeyServer, KeyServerConnection } from './ports/key-server.port.js';
export type { SessionStore } from './ports/session-store.port.js';
export type { Logger } from './ports/logger.port.js';
