import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { CryptoRandom } from '../adapters/random/crypto-random.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { KEY_SERVER } from '../ports/key-server.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { SESSION_STORE } from '../ports/session-store.port.js';
import { createKoaApp, openApiDocument } from '../transports/koa/app.js';
import { GATEWAY_VERSION } from './version.js';
import type { GatewayState } from '../transports/koa/state.js';
import type { GatewayServices } from '../use-cases/index.js';
import { parseGatewayConfig, type GatewayConfig, type GatewayConfigInput } from './config.js';
import { buildContainer, resolve, type GatewayOverrides } from './container.js';
import { startEmbeddedKeyServer } from './embedded-engine.js';
import {
  ACL_USE_CASES,
  CRYPTO_USE_CASES,
  GROUP_USE_CASES,
  HEALTH_USE_CASES,
  IDENTITY_ADMIN_USE_CASES,
  KEY_USE_CASES,
  PRINCIPAL_USE_CASES,
  PROOF_CHECKER,
  ROLE_USE_CASES,
  SESSION_USE_CASES,
} from './tokens.js';
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
  /** Stops listening (if it does), then closes the stores and the key server. */
  close(): Promise<void>;
}

/**
 * Builds a gateway for embedding in another Node service, or for the CLI. Nothing listens until
 * `listen` is called; `app.callback()` may be mounted on a server of the caller's own instead.
 */
export async function createGateway(input: GatewayConfigInput = {}, overrides: GatewayOverrides = {}): Promise<Gateway> {
  const config = parseGatewayConfig(input);
  const clock = overrides.clock ?? new SystemClock();
  const random = overrides.random ?? new CryptoRandom();
  let generatedPasswords: Readonly<Record<string, string>> | undefined;
  let keyServer = overrides.keyServer;
  if (keyServer === undefined) {
    const embedded = await startEmbeddedKeyServer(config.keyServer, clock, random);
    keyServer = embedded.keyServer;
    generatedPasswords = embedded.generatedPasswords;
  }
  const container = buildContainer(config, keyServer, { ...overrides, clock, random });
  const services: GatewayServices = {
    sessions: resolve(container, SESSION_USE_CASES),
    keys: resolve(container, KEY_USE_CASES),
    acl: resolve(container, ACL_USE_CASES),
    crypto: resolve(container, CRYPTO_USE_CASES),
    principals: resolve(container, PRINCIPAL_USE_CASES),
    groups: resolve(container, GROUP_USE_CASES),
    roles: resolve(container, ROLE_USE_CASES),
    health: resolve(container, HEALTH_USE_CASES),
    identityAdmin: resolve(container, IDENTITY_ADMIN_USE_CASES),
    proofs: resolve(container, PROOF_CHECKER),
  };
  const logger = resolve(container, LOGGER);
  const app = createKoaApp(services, { logger, corsOrigins: config.corsOrigins, publicOrigin: config.publicOrigin });
  const servers: Server[] = [];

  return {
    app,
    config,
    logger,
    ksFingerprint: keyServer.fingerprint(),
    generatedPasswords,
    openApi: () => openApiDocument(services, GATEWAY_VERSION),
    async listen(port = config.port, host = config.host) {
      const server = createServer(app.callback());
      servers.push(server);
      await new Promise<void>((ready, fail) => {
        server.once('error', fail);
        server.listen(port, host, () => ready());
      });
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { server, url: `http://${shownHost}:${address.port}` };
    },
    async close() {
      await Promise.all(servers.map((server) => new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
      })));
      await resolve(container, SESSION_STORE).close();
      await resolve(container, REPLAY_CACHE).close();
      await resolve(container, KEY_SERVER).close();
    },
  };
}
