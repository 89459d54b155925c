import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../../ports/logger.port.js';
import type { Metrics } from '../../../ports/metrics.port.js';
import type { HealthReport, HealthUseCases } from '../../../use-cases/index.js';
import { recordRequest } from './access-log.js';
import { clientAddressOf, peerAddress } from './client-address.js';
import { openResponse } from './open-response.js';

/** A health answer as a surface shapes it. */
export interface HealthAnswer {
  readonly status: 200 | 503;
  readonly body: Record<string, unknown>;
  /** Seconds a prober should wait before asking again (503 on /api only). */
  readonly retryAfter?: string;
}

/**
 * The root `GET /health` (docs/spec.md §2.3 item 5) always answers 200 with `ok`, the fingerprint and the session count,
 * and, on key-server daemons, each daemon (`keyServers`: URL, fingerprint, ok);
 * `/api/health` (docs/spec.md §4.16) answers 503 with `Retry-After` when a check fails, and adds the version
 * and the checks.
 */
export function healthAnswer(report: HealthReport, surface: 'root' | 'api'): HealthAnswer {
  const keyServers = report.keyServers === undefined ? {} : { keyServers: report.keyServers };
  if (surface === 'root')
    return { status: 200, body: { ok: report.ok, ksFingerprint: report.ksFingerprint, sessions: report.sessions, ...keyServers } };
  const body = {
    ok: report.ok,
    ksFingerprint: report.ksFingerprint,
    sessions: report.sessions,
    version: report.version,
    checks: report.checks,
    ...(report.reasons === undefined ? {} : { reasons: report.reasons }),
    ...keyServers,
  };
  return report.ok ? { status: 200, body } : { status: 503, body, retryAfter: '5' };
}

// A map, not an object: no request URL reaches an inherited member (an embedding host may set
// `req.url` to anything, `constructor` included).
const PROBE_PATHS: ReadonlyMap<string, 'root' | 'api'> = new Map([
  ['/health', 'root'],
  ['/api/health', 'api'],
]);

export interface HealthProbeOptions {
  readonly health: HealthUseCases;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** With an allowlist, a probe sent with an Origin goes the Koa way (cors.ts answers it). */
  readonly corsOrigins: readonly string[];
  /** Peers (IPs, CIDRs) whose X-Forwarded-For names the client, for the access log's `client`. */
  readonly trustedProxies: readonly string[];
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Health probes answered before Koa builds a context for them (docs/spec.md §12 item 10): a load balancer asks
 * often, and the probe's answer is a report the background checker keeps (`HealthUseCases`), so the
 * answer is worth less than the framework around it. Only a plain probe is taken: `GET` on exactly
 * `/health` or `/api/health`, no query, no body, and no `Origin` when CORS is on. Anything else (HEAD,
 * a query, a body, a cross-origin probe) goes to `next`, the Koa app, whose routes give the same
 * answer. The answer carries the headers, access-log line and metrics of every other response
 * (`openResponse`, `recordRequest`) and is not audited (docs/spec.md §9.1).
 */
export function withHealthProbes(options: HealthProbeOptions, next: Handler): Handler {
  const { health, logger, metrics } = options;
  const corsOn = options.corsOrigins.length > 0;
  const clientAddress = clientAddressOf(options.trustedProxies);
  return function answerProbe(req, res) {
    const surface = req.method === 'GET' && req.url !== undefined ? PROBE_PATHS.get(req.url) : undefined;
    const headers = req.headers;
    if (
      surface === undefined ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      (corsOn && headers.origin !== undefined)
    ) {
      return next(req, res);
    }
    // Nothing is written before the answer is whole: a probe that fails (a bug) goes the Koa way, whose
    // error step answers it, rather than rejecting in the server's hands.
    return answer(req, res, surface).catch(async (error: unknown) => {
      if (!res.headersSent) return next(req, res);
      logger.error('health probe failed after its answer was sent', {
        cause: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    });
  };

  async function answer(req: IncomingMessage, res: ServerResponse, surface: 'root' | 'api'): Promise<void> {
    const started = performance.now();
    const identity = openResponse(req.headers);
    const report = await health.report();
    const { status, body, retryAfter } = healthAnswer(report, surface);
    const json = JSON.stringify(body);
    // One writeHead with every header, rather than a setHeader call each.
    const headers = identity.headers;
    if (corsOn) headers.push('Vary', 'Origin');
    if (retryAfter !== undefined) headers.push('Retry-After', retryAfter);
    headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(json)));
    res.writeHead(status, headers);
    res.end(json);
    recordRequest(logger, metrics, {
      requestId: identity.requestId,
      traceId: identity.traceId,
      operation: 'health',
      method: 'GET',
      path: req.url!,
      status,
      seconds: (performance.now() - started) / 1e3,
      client: clientAddress(req),
      peer: peerAddress(req),
    });
  }
}
