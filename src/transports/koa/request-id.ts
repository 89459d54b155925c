import { randomFillSync } from 'node:crypto';

/** Ids drawn per refill of the pool: one call into the CSPRNG serves this many requests. */
const POOL_IDS = 512;
const ID_BYTES = 8;
const pool = Buffer.alloc(POOL_IDS * ID_BYTES);
let next = POOL_IDS;

/**
 * A fresh request id (`X-Request-Id`, the audit records' `requestId`): 8 random bytes as hex, as
 * before, drawn from a pool refilled in one CSPRNG call per 512 requests.
 */
export function newRequestId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next++ * ID_BYTES;
  return pool.toString('hex', start, start + ID_BYTES);
}
