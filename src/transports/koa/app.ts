import Koa from 'koa';
import type { Logger } from '../../ports/logger.port.js';
import { type Metrics, NoMetrics } from '../../ports/metrics.port.js';
import type { GatewayServices } from '../../use-cases/index.js';
import { apiErrorMapper } from './api/api.errors.js';
import { isApiPath } from './api/api.router.js';
import type { ApiContext } from './api/api-context.js';
import { buildOpenApi } from './api/openapi.js';
import { CONSOLE_PATH, type LoadConsoleAssets, serveConsole } from './console/console.js';
import { DEFAULT_IPV6_PREFIX_LENGTH } from './http/client-address.js';
import { cors } from './http/cors.js';
import { type HealthProbeOptions, withHealthProbes } from './http/health-probe.js';
import { type JwksFastPathOptions, withPublishedJwks } from './http/jwks-fast-path.js';
import { readRawBody } from './http/read-body.js';
import { requestStep } from './http/request-step.js';
import { JWKS_PATH, servePublishedJwks } from './jwks/published-jwks.js';
import { rootErrorMapper } from './root/root.errors.js';
import { gatewayRoutes, routeTableOf } from './routing/gateway-routes.js';
import type { GatewayState } from './state.js';

export interface KoaAppOptions {
  readonly logger: Logger;
  /** Exact browser origins allowed cross-origin access; empty: no CORS header of any kind. */
  readonly corsOrigins?: readonly string[];
  /**
   * The URL clients address behind a TLS-terminating proxy or a mount point (proof `htu`): origin and
   * optional base path, without a trailing slash.
   */
  readonly publicOrigin?: string | undefined;
  /** The gateway's version, shown in the served OpenAPI document. */
  readonly gatewayVersion?: string;
  /** Peers (IPs, CIDRs) whose X-Forwarded-For names the client. */
  readonly trustedProxies?: readonly string[];
  /** Per-address limits group an IPv6 client by this many leading bits (64 when absent). */
  readonly ipv6PrefixLength?: number;
  /** Request counts and durations by operation id and status (off by default). */
  readonly metrics?: Metrics;
  /** Runs one request so that its calls to each dependency share one timeout (see `requestStep`). */
  readonly withinRequest?: <T>(work: () => Promise<T>) => Promise<T>;
  /** The operator console's files, served at `/console/`; absent: no console (404 there). */
  readonly console?: LoadConsoleAssets | undefined;
}

/**
 * Builds the gateway's Koa application over the use cases. It never listens: the caller (the CLI, an
 * embedding service, a test) decides where it is served.
 */
export function createKoaApp(services: GatewayServices, options: KoaAppOptions): Koa<GatewayState> {
  const metrics = options.metrics ?? new NoMetrics();
  const app = new GatewayKoa({
    health: services.health,
    jwks: services.publishedJwks,
    logger: options.logger,
    metrics,
    corsOrigins: options.corsOrigins ?? [],
    trustedProxies: options.trustedProxies ?? [],
  });
  app.silent = true;
  const mapperFor = (path: string) => (isApiPath(path) ? apiErrorMapper : rootErrorMapper);
  // One step around everything: request id and headers, client address, error shaping, the audit
  // record, and the access-log line with the request metrics.
  app.use(
    requestStep({
      mapperFor,
      logger: options.logger,
      metrics,
      publicOrigin: options.publicOrigin,
      trustedProxies: options.trustedProxies ?? [],
      ...(options.withinRequest === undefined ? {} : { withinRequest: options.withinRequest }),
      ipv6PrefixLength: options.ipv6PrefixLength ?? DEFAULT_IPV6_PREFIX_LENGTH,
    }),
  );
  // With no allowed origin nothing is sent (same-origin posture): the step is then left out entirely.
  if ((options.corsOrigins ?? []).length > 0) app.use(cors(options.corsOrigins ?? [], options.logger));
  const gatewayVersion = options.gatewayVersion ?? '0.0.0';
  const table = routeTableOf(gatewayRoutes(services, { gatewayVersion, publicOrigin: options.publicOrigin }), services);
  if (options.console !== undefined) table.mount(CONSOLE_PATH, serveConsole(options.console));
  table.mount(JWKS_PATH, servePublishedJwks(services.publishedJwks));
  const route = table.dispatcher();
  app.use(async function dispatch(ctx, next) {
    // A body over 1 MB is refused on every route, those that take none included (docs/spec.md §7).
    await readRawBody(ctx);
    await route(ctx as ApiContext, next);
  });
  return app;
}

/**
 * The gateway's Koa application: its request handler (`callback()`, which `listen` and an embedding
 * server mount alike) answers a plain health probe, and a published JWKS it holds a fresh copy of,
 * before Koa makes a context for it.
 */
class GatewayKoa extends Koa<GatewayState> {
  readonly #fast: HealthProbeOptions & JwksFastPathOptions;

  constructor(fast: HealthProbeOptions & JwksFastPathOptions) {
    super({ proxy: false });
    this.#fast = fast;
  }

  override callback(): ReturnType<Koa['callback']> {
    const koa = super.callback() as Parameters<typeof withHealthProbes>[1];
    return withHealthProbes(this.#fast, withPublishedJwks(this.#fast, koa)) as ReturnType<Koa['callback']>;
  }
}

/** The OpenAPI 3.1 document of both surfaces, from the route declarations themselves. */
export function openApiDocument(services: GatewayServices, gatewayVersion: string): Record<string, unknown> {
  return buildOpenApi(gatewayRoutes(services, { gatewayVersion }), gatewayVersion);
}
