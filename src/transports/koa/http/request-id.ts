import { randomFillSync } from 'node:crypto';

/** Ids drawn per refill of the pool: one call into the CSPRNG serves this many requests. */
const POOL_IDS = 512;
const ID_BYTES = 8;
const pool = Buffer.alloc(POOL_IDS * ID_BYTES);
let next = POOL_IDS;

/** An incoming request id is honoured when it is 1 to 64 characters of [A-Za-z0-9._-] (docs/spec.md §1.3 item 2). */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** W3C Trace Context §3.2: version-traceid-parentid-flags, lower-case hex; version ff is invalid. */
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * The request's id: the caller's own `X-Request-Id` when it is well-formed, else a fresh one; and the
 * trace id of a valid W3C `traceparent`, which is echoed (docs/spec.md §1.3 item 2).
 */
export function requestIdentity(
  requestId: string | undefined,
  traceparent: string | undefined,
): { requestId: string; traceId?: string; traceparent?: string } {
  const id = requestId !== undefined && REQUEST_ID.test(requestId) ? requestId : drawRequestId();
  const trace = traceparent === undefined ? null : TRACEPARENT.exec(traceparent.trim());
  return trace === null ? { requestId: id } : { requestId: id, traceId: trace[1]!, traceparent: traceparent!.trim() };
}

/** A fresh id: 8 random bytes as hex, drawn from a pool refilled in one CSPRNG call per 512 requests. */
function drawRequestId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next++ * ID_BYTES;
  return pool.toString('hex', start, start + ID_BYTES);
}
