import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../../ports/logger.port.js';
import type { Metrics } from '../../../ports/metrics.port.js';
import type { PublishedJwks } from '../../../use-cases/published-jwks.js';
import { JWKS_CACHE_CONTROL, JWKS_PATH, matchesEtag, referenceOf } from '../jwks/published-jwks.js';
import { recordRequest } from './access-log.js';
import { clientAddressOf, peerAddress } from './client-address.js';
import { openResponse } from './open-response.js';

export interface JwksFastPathOptions {
  readonly jwks: PublishedJwks;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** With an allowlist, a request sent with an Origin goes the Koa way (cors.ts answers it). */
  readonly corsOrigins: readonly string[];
  readonly trustedProxies: readonly string[];
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * A published JWKS answered from the gateway's fresh copy before Koa builds a context
 * (docs/spec.md §4.25 item 7), as a health probe is: relying parties ask often, and the answer is bytes the gateway
 * already holds. Only a plain fetch is taken: `GET`, no query, no body, no `Origin` when CORS is on, and
 * a key set the gateway holds a copy of at most a second old. Anything else (HEAD, another method, no
 * fresh copy, a name that publishes nothing) goes to `next`, the Koa app, whose route gives the same
 * answer and keeps the copy. The answer carries the headers, access-log line and metrics of every
 * other response (`openResponse`, `recordRequest`) and is not audited, as the Koa route's is not.
 */
export function withPublishedJwks(options: JwksFastPathOptions, next: Handler): Handler {
  const { jwks, logger, metrics } = options;
  const corsOn = options.corsOrigins.length > 0;
  const clientAddress = clientAddressOf(options.trustedProxies);
  return function answerJwks(req, res) {
    const url = req.url;
    const headers = req.headers;
    if (
      req.method !== 'GET' ||
      url === undefined ||
      !url.startsWith(`${JWKS_PATH}/`) ||
      url.includes('?') ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      (corsOn && headers.origin !== undefined)
    ) {
      return next(req, res);
    }
    const reference = referenceOf(url);
    const answer = reference === undefined ? undefined : jwks.fresh(reference);
    if (answer === undefined) return next(req, res);
    const started = performance.now();
    const identity = openResponse(headers);
    const sent = identity.headers;
    // The one exception to no-store (docs/spec.md §4.25 item 7): openResponse's Cache-Control, replaced.
    sent[sent.indexOf('Cache-Control') + 1] = JWKS_CACHE_CONTROL;
    if (corsOn) sent.push('Vary', 'Origin');
    sent.push('ETag', answer.etag);
    const notModified = matchesEtag(single(headers['if-none-match']), answer.etag);
    if (notModified) res.writeHead(304, sent).end();
    else {
      sent.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(answer.body.length));
      res.writeHead(200, sent).end(answer.body);
    }
    recordRequest(logger, metrics, {
      requestId: identity.requestId,
      traceId: identity.traceId,
      operation: 'jwks',
      method: 'GET',
      path: url,
      status: notModified ? 304 : 200,
      seconds: (performance.now() - started) / 1e3,
      client: clientAddress(req),
      peer: peerAddress(req),
    });
    return Promise.resolve();
  };
}

function single(value: string | string[] | undefined): string {
  return typeof value === 'string' ? value : '';
}
