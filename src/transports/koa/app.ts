import Koa, { type Middleware } from 'koa';
import type { Logger } from '../../ports/logger.port.js';
import { NoMetrics, type Metrics } from '../../ports/metrics.port.js';
import type { GatewayServices } from '../../use-cases/index.js';
import { apiErrorMapper } from './api/api.errors.js';
import { apiMiddleware, apiRouteTable, isApiPath } from './api/api.router.js';
import { buildOpenApi, OPENAPI_PATH } from './api/openapi.js';
import { serveOpenApi } from './api/openapi.endpoint.js';
import { isConsolePath, serveConsole, type LoadConsoleAssets } from './console.js';
import { cors } from './cors.js';
import { type HealthProbeOptions, withHealthProbes } from './health-probe.js';
import { requestStep } from './request-step.js';
import { DEFAULT_IPV6_PREFIX_LENGTH } from './client-address.js';
import { readRawBody } from './read-body.js';
import { rootErrorMapper } from './root/root.errors.js';
import { rootRouter } from './root/root.router.js';
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
  const app = new GatewayKoa({ health: services.health, logger: options.logger, metrics, corsOrigins: options.corsOrigins ?? [] });
  app.silent = true;
  const mapperFor = (path: string) => (isApiPath(path) ? apiErrorMapper : rootErrorMapper);
  // One step around everything: request id and headers, client address, error shaping, the audit
  // record, and the access-log line with the request metrics.
  app.use(
    requestStep({
      trail: services.auditTrail,
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
  const openApi = serveOpenApi(() => openApiDocument(services, options.gatewayVersion ?? '0.0.0'), options.publicOrigin);
  // Each request walks only its own surface's routes: /api paths never meet the seven operations' router.
  const [apiRoutes, noApiRoute] = apiMiddleware(services);
  const rootRoutes = rootRouter(services).routes() as unknown as Middleware<GatewayState>;
  const consoleFiles = options.console === undefined ? undefined : serveConsole(options.console);
  const route: Middleware<GatewayState> = (ctx, next) => {
    if (consoleFiles !== undefined && isConsolePath(ctx.path)) return consoleFiles(ctx, next);
    if (!isApiPath(ctx.path)) return rootRoutes(ctx, () => noRoute(ctx));
    if (ctx.path === OPENAPI_PATH) return openApi(ctx, next);
    return apiRoutes!(ctx, () => noApiRoute!(ctx, next));
  };
  app.use(async function dispatch(ctx, next) {
    // A body over 1 MB is refused on every route, those that take none included (docs/spec.md §7).
    await readRawBody(ctx);
    await route(ctx, next);
  });
  return app;
}

/**
 * The gateway's Koa application: its request handler (`callback()`, which `listen` and an embedding
 * server mount alike) answers a plain health probe before Koa makes a context for it.
 */
class GatewayKoa extends Koa<GatewayState> {
  readonly #probes: HealthProbeOptions;

  constructor(probes: HealthProbeOptions) {
    super({ proxy: false });
    this.#probes = probes;
  }

  override callback(): ReturnType<Koa['callback']> {
    return withHealthProbes(this.#probes, super.callback() as Parameters<typeof withHealthProbes>[1]) as ReturnType<Koa['callback']>;
  }
}

/** Reached only when no route answered (docs/spec.md §2.1): any other method and path is a 404. */
async function noRoute(ctx: Koa.Context): Promise<void> {
  ctx.status = 404;
  ctx.body = { error: `no route ${ctx.method} ${ctx.path}` };
}

/** The OpenAPI 3.1 document of the /api surface, from the route declarations themselves. */
export function openApiDocument(services: GatewayServices, gatewayVersion: string): Record<string, unknown> {
  return buildOpenApi(apiRouteTable(services), gatewayVersion);
}
