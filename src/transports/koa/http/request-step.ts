import type { Context, Middleware } from 'koa';
import type { Logger } from '../../../ports/logger.port.js';
import type { Metrics } from '../../../ports/metrics.port.js';
import { undoingWithin } from '../audit/audit-scope.js';
import type { GatewayState } from '../state.js';
import { accessLog } from './access-log.js';
import { clientAddressKey, clientAddressOf } from './client-address.js';
import { type ErrorMapper, shapeFailures } from './error-handler.js';
import { openRequest } from './open-response.js';

export interface RequestStepOptions {
  readonly mapperFor: (path: string) => ErrorMapper;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** The origin clients address behind a TLS-terminating proxy (proof `htu`). */
  readonly publicOrigin: string | undefined;
  /** Peers (IPs, CIDRs) whose X-Forwarded-For names the client. */
  readonly trustedProxies: readonly string[];
  /**
   * Runs one request so that its calls to each dependency share one timeout (the app gives the
   * adapters' `withinRequest`); without it each call has its own.
   */
  readonly withinRequest?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Per-address limits group an IPv6 client by this many leading bits. */
  readonly ipv6PrefixLength: number;
}

/**
 * The one step around every request Koa answers, five named parts in this order:
 * 1. `openRequest`: its id (`X-Request-Id`), trace and the headers of every response, and the origin
 *    its proof URL is built on;
 * 2. `clientAddressOf`: the client's address, which the access log names, and the key its limits
 *    count under (`clientAddressKey`);
 * 3. `shapeFailures` around the routes below: any failure becomes the surface's error body;
 * 4. `AuditScope.finish`: the record of a route that named an operation, written once the response is
 *    decided (status and `errorCode` final); when the trail refuses to let a sensitive success through
 *    unrecorded, that refusal is shaped like any failure, in place of the result;
 * 5. `accessLog`: the access-log line and the request metrics, whatever happened before.
 * One Koa middleware, not one each: every request passes all five, and each Koa middleware costs a
 * dispatch of its own.
 */
export function requestStep(options: RequestStepOptions): Middleware<GatewayState> {
  const withinRequest = options.withinRequest ?? ((work) => work());
  const open = openRequest(options.publicOrigin);
  const clientAddress = clientAddressOf(options.trustedProxies);
  const shaped = shapeFailures(options.mapperFor, options.logger);
  const undoing = undoingWithin(options.logger, withinRequest);
  const logAccess = accessLog(options.logger, options.metrics);
  return function handleRequest(ctx, next) {
    return withinRequest(() => runRequest(ctx, next));
  };

  async function runRequest(ctx: Context & { state: GatewayState }, next: () => Promise<unknown>): Promise<void> {
    const started = performance.now();
    open(ctx);
    try {
      const address = clientAddress(ctx.req);
      ctx.state.clientAddress = address;
      ctx.state.clientKey = clientAddressKey(address, options.ipv6PrefixLength);
      await shaped(ctx, next);
      const audit = ctx.state.audit;
      if (audit !== undefined) await shaped(ctx, () => audit.finish(undoing));
    } finally {
      logAccess(ctx, started);
    }
  }
}
