import { randomBytes, randomFillSync } from 'node:crypto';
import type { Random } from '../../ports/random.port.js';

/** Requests up to this many bytes are served from the pool. */
const POOLED_MAX = 64;
const POOL_BYTES = 4096;

/**
 * The operating system's CSPRNG, through node:crypto. Small requests (ids, salts, ivs, scalars) are
 * cut from a pool refilled in one call per 4 KiB, the way Node's own `randomUUID` batches; each byte is
 * handed out once, and a caller gets a copy it may zero or keep.
 */
export class CryptoRandom implements Random {
  readonly #pool = Buffer.alloc(POOL_BYTES);
  #offset = POOL_BYTES;

  bytes(length: number): Uint8Array {
    if (length > POOLED_MAX) return randomBytes(length);
    if (this.#offset + length > POOL_BYTES) {
      randomFillSync(this.#pool);
      this.#offset = 0;
    }
    const out = Buffer.from(this.#pool.subarray(this.#offset, this.#offset + length));
    this.#pool.fill(0, this.#offset, this.#offset + length);
    this.#offset += length;
    return out;
  }
}
