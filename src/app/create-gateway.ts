import type { Server } from 'node:http';
import type Koa from 'koa';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';
import { withinRequest } from '../adapters/request-budget/request-budget.js';
import type { Logger } from '../ports/logger.port.js';
import type { Metrics } from '../ports/metrics.port.js';
import { createKoaApp, openApiDocument } from '../transports/koa/app.js';
import type { GatewayState } from '../transports/koa/state.js';
import type { GatewayServices } from '../use-cases/index.js';
import { type GatewayAdapters, type GatewayOverrides, openAdapters } from './adapters.js';
import { CONFIG_DEFAULTS, type GatewayConfig, type GatewayConfigInput, parseGatewayConfig } from './config/config.js';
import { loadConsoleAssets } from './console-assets.js';
import { buildContainer, resolveServices } from './container.js';
import { type BoundHttpListener, bindHttp, type HttpListener } from './http-listener.js';
import { metricsHandler } from './metrics-listener.js';
import { GATEWAY_VERSION } from './version.js';

/** A built gateway: its Koa app (not yet listening), and how to serve and stop it. */
export interface Gateway {
  readonly app: Koa<GatewayState>;
  readonly config: GatewayConfig;
  readonly logger: Logger;
  /** The key server's identity fingerprint (`/health` `ksFingerprint`). */
  readonly ksFingerprint: string;
  /** Set only when the gateway generated bootstrap passwords (user -> password); show them once. */
  readonly generatedPasswords: Readonly<Record<string, string>> | undefined;
  /**
   * The warnings logged while the gateway was built (a volatile key server, a generated key, a setting
   * not applied), one line each: the CLI repeats them on stderr before it says it listens.
   */
  readonly bootWarnings: readonly string[];
  /** The gateway's metrics (what the metrics listener serves). */
  readonly metrics: Metrics;
  /** Where the metrics listener serves `GET /metrics`, once `listen` started it (TE_GATEWAY_METRICS_PORT). */
  metricsUrl(): string | undefined;
  /** The OpenAPI 3.1 document of the /api surface (`npm run openapi` writes it to openapi.json). */
  openApi(): Record<string, unknown>;
  /**
   * Serves the app on `port`/`host` (the configuration's by default) and resolves once listening; the
   * metrics listener, when configured, on `metricsHost` (loopback by default), whatever `host` is.
   */
  listen(port?: number, host?: string): Promise<{ server: Server; url: string }>;
  /** Serves the app on ports bound before the gateway was built (`bindGatewayPorts`), at once. */
  serve(ports: GatewayPorts): { server: Server; url: string };
  /**
   * Stops accepting connections, lets requests in flight finish (at most `drainMs`, 10 s by default,
   * then cuts them), then closes the session store, the replay cache and the key server.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

/** The gateway's listeners, bound before it is built (`bindGatewayPorts`), not yet serving. */
export interface GatewayPorts {
  readonly api: BoundHttpListener;
  /** The metrics listener, with TE_GATEWAY_METRICS_PORT. */
  readonly metrics: BoundHttpListener | undefined;
}

/**
 * Binds the API port (`port`/`host`, the configuration's by default) and the metrics port, first of
 * all: `keygate serve` binds before it opens or creates anything, so a port in use stops a first start
 * before it has made the users whose generated passwords it would never show (docs/operations.md
 * "Boot sequence"). A request that comes meanwhile waits until `serve`.
 */
export async function bindGatewayPorts(config: GatewayConfig, port = config.port, host = config.host): Promise<GatewayPorts> {
  const limits = { ...config.http, connectionsCheckingIntervalMs: CONFIG_DEFAULTS.http.connectionsCheckingIntervalMs };
  const metrics = config.metricsPort === undefined ? undefined : await bindHttp(config.metricsPort, config.metricsHost);
  try {
    return { api: await bindHttp(port, host, limits), metrics };
  } catch (error) {
    await metrics?.drain(0);
    throw error;
  }
}

/** How long `close` waits for requests in flight by default. */
export const DEFAULT_DRAIN_MS = 10_000;

/**
 * Builds a gateway for embedding in another Node service, or for the CLI. Nothing listens until
 * `listen` is called; `app.callback()` may be mounted on a server of the caller's own instead.
 */
export async function createGateway(input: GatewayConfigInput = {}, overrides: GatewayOverrides = {}): Promise<Gateway> {
  const config = parseGatewayConfig(input);
  const { generatedPasswords, auditVerifyKeys, bootWarnings, ...adapters } = await openAdapters(config, overrides);
  const { logger, keyServer } = adapters;
  const services = resolveServices(buildContainer(config, adapters, auditVerifyKeys));
  // At start and every minute: the audit records of keys the key server destroyed (docs/spec.md §4.23 item 5).
  services.destructionRecords.start();

  const { metrics } = adapters;
  const app = createKoaApp(services, {
    logger,
    metrics,
    corsOrigins: config.corsOrigins,
    publicOrigin: config.publicUrl ?? config.publicOrigin,
    gatewayVersion: GATEWAY_VERSION,
    trustedProxies: config.trustedProxies,
    withinRequest,
    ipv6PrefixLength: config.ipv6PrefixLength,
    console: config.console === 'on' ? loadConsoleAssets : undefined,
  });
  const listeners: HttpListener[] = [];
  let metricsListener: HttpListener | undefined;

  function serve(ports: GatewayPorts): { server: Server; url: string } {
    if (ports.metrics !== undefined && metricsListener === undefined && metrics instanceof PromMetrics) {
      ports.metrics.serve(metricsHandler(metrics));
      metricsListener = ports.metrics;
      listeners.push(metricsListener);
    } else if (ports.metrics !== undefined) {
      // Metrics an embedder supplied itself, or served already: nothing to serve on this port.
      void ports.metrics.drain(0);
    }
    ports.api.serve(app.callback());
    listeners.push(ports.api);
    return { server: ports.api.server, url: ports.api.url };
  }

  return {
    app,
    config,
    logger,
    ksFingerprint: keyServer.fingerprint(),
    generatedPasswords,
    bootWarnings,
    metrics,
    metricsUrl: () => metricsListener && `${metricsListener.url}/metrics`,
    openApi: () => openApiDocument(services, GATEWAY_VERSION),
    async listen(port = config.port, host = config.host) {
      const servesMetrics = metricsListener === undefined && metrics instanceof PromMetrics;
      return serve(await bindGatewayPorts(servesMetrics ? config : { ...config, metricsPort: undefined }, port, host));
    },
    serve,
    async close({ drainMs = DEFAULT_DRAIN_MS } = {}) {
      const cut = await Promise.all(listeners.map((listener) => listener.drain(drainMs)));
      const total = cut.reduce((sum, n) => sum + n, 0);
      if (total > 0) logger.warn('requests still running at the end of the drain were cut', { requests: total, drainMs });
      await closeGatewayParts(services, adapters);
    },
  };
}

/**
 * Stops what a gateway built over its adapters, once nothing serves any more: the background health
 * checker and the destruction records' task, then the session store, the replay cache, the throttle
 * store, the audit log and the key server, and last the writer locks on the stores just closed.
 */
export async function closeGatewayParts(
  services: Pick<GatewayServices, 'health' | 'destructionRecords'>,
  adapters: GatewayAdapters,
): Promise<void> {
  services.health.close();
  await services.destructionRecords.stop();
  await adapters.sessionStore.close();
  await adapters.replayCache.close();
  await adapters.throttleStore.close();
  await adapters.auditLog.close();
  await adapters.keyServer.close();
  // Not on a failed close: a store that may still be open stays held until the process ends.
  adapters.writerLocks.close();
}
