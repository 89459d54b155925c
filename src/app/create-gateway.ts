import type { Server } from 'node:http';
import type Koa from 'koa';
import { TlsKeyServer } from '../adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../adapters/random/crypto-random.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { PinoLogger } from '../adapters/logger/pino-logger.js';
import { AUDIT_LOG } from '../ports/audit-log.port.js';
import type { Clock } from '../ports/clock.port.js';
import { KEY_SERVER, type KeyServer } from '../ports/key-server.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { Random } from '../ports/random.port.js';
import { SESSION_STORE } from '../ports/session-store.port.js';
import { createKoaApp, openApiDocument } from '../transports/koa/app.js';
import { GATEWAY_VERSION } from './version.js';
import type { GatewayState } from '../transports/koa/state.js';
import { openAuditLog } from './audit-log.js';
import { loadAuditIntegrity } from './audit-keys.js';
import { parseGatewayConfig, type GatewayConfig, type GatewayConfigInput } from './config.js';
import { buildContainer, resolve, resolveServices, type GatewayOverrides } from './container.js';
import { startEmbeddedKeyServer } from './embedded-engine.js';
import { listenHttp, type HttpListener } from './http-listener.js';
import { startSessionState } from './session-state.js';
import { REPLAY_CACHE } from '../ports/replay-cache.port.js';

/** A built gateway: its Koa app (not yet listening), and how to serve and stop it. */
export interface Gateway {
  readonly app: Koa<GatewayState>;
  readonly config: GatewayConfig;
  readonly logger: Logger;
  /** The key server's identity fingerprint (`/health` `ksFingerprint`). */
  readonly ksFingerprint: string;
  /** Set only when the gateway generated bootstrap passwords (user -> password); show them once. */
  readonly generatedPasswords: Readonly<Record<string, string>> | undefined;
  /** The OpenAPI 3.1 document of the /api surface (`npm run openapi` writes it to openapi.json). */
  openApi(): Record<string, unknown>;
  /** Serves the app on `port`/`host` (the configuration's by default) and resolves once listening. */
  listen(port?: number, host?: string): Promise<{ server: Server; url: string }>;
  /**
   * Stops accepting connections, lets requests in flight finish (at most `drainMs`, 10 s by default,
   * then cuts them), then closes the session store, the replay cache and the key server.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

/** How long `close` waits for requests in flight by default. */
export const DEFAULT_DRAIN_MS = 10_000;

/** The configured key server: a daemon over TLS when a URL is set, else the embedded engine. */
async function startKeyServer(
  config: GatewayConfig['keyServer'],
  clock: Clock,
  random: Random,
): Promise<{ keyServer: KeyServer; generatedPasswords: Readonly<Record<string, string>> | undefined }> {
  if (config.kind === 'tls') return { keyServer: await TlsKeyServer.start(config, random), generatedPasswords: undefined };
  return startEmbeddedKeyServer(config, clock, random);
}

/**
 * Builds a gateway for embedding in another Node service, or for the CLI. Nothing listens until
 * `listen` is called; `app.callback()` may be mounted on a server of the caller's own instead.
 */
export async function createGateway(input: GatewayConfigInput = {}, overrides: GatewayOverrides = {}): Promise<Gateway> {
  const config = parseGatewayConfig(input);
  const clock = overrides.clock ?? new SystemClock();
  const random = overrides.random ?? new CryptoRandom();
  const logger = overrides.logger ?? new PinoLogger({ level: config.logLevel });
  const integrity = overrides.auditLog === undefined ? loadAuditIntegrity(config.auditIntegrity, logger, () => clock.now()) : undefined;
  const auditLog = overrides.auditLog ?? (await openAuditLog(config.audit, logger, integrity?.chain));
  const auditVerifyKeys = overrides.auditVerifyKeys ?? integrity?.verifyKeys;
  const { keyServer, generatedPasswords } = overrides.keyServer
    ? { keyServer: overrides.keyServer, generatedPasswords: undefined }
    : await startKeyServer(config.keyServer, clock, random).catch(async (error: unknown) => {
        await auditLog.close();
        throw error;
      });
  const sessionState = await startSessionState(config, { clock, random, logger }, overrides);
  const container = buildContainer(config, keyServer, {
    ...overrides,
    ...sessionState,
    clock,
    random,
    logger,
    auditLog,
    ...(auditVerifyKeys === undefined ? {} : { auditVerifyKeys }),
  });
  const services = resolveServices(container);

  const app = createKoaApp(services, { logger, corsOrigins: config.corsOrigins, publicOrigin: config.publicOrigin });
  const listeners: HttpListener[] = [];

  return {
    app,
    config,
    logger,
    ksFingerprint: keyServer.fingerprint(),
    generatedPasswords,
    openApi: () => openApiDocument(services, GATEWAY_VERSION),
    async listen(port = config.port, host = config.host) {
      const listener = await listenHttp(app.callback(), port, host);
      listeners.push(listener);
      return { server: listener.server, url: listener.url };
    },
    async close({ drainMs = DEFAULT_DRAIN_MS } = {}) {
      const cut = await Promise.all(listeners.map((listener) => listener.drain(drainMs)));
      const total = cut.reduce((sum, n) => sum + n, 0);
      if (total > 0) logger.warn('requests still running at the end of the drain were cut', { requests: total, drainMs });
      await resolve(container, SESSION_STORE).close();
      await resolve(container, REPLAY_CACHE).close();
      await resolve(container, AUDIT_LOG).close();
      await resolve(container, KEY_SERVER).close();
    },
  };
}
