import { createHash } from 'node:crypto';
import type { Random } from '../../src/ports/random.port.js';

/** Deterministic randomness for unit tests: SHA-256 in counter mode over a seed. Never for production. */
export class SeededRandom implements Random {
  #counter = 0;
  readonly #seed: string;

  constructor(seed = 'keygate-test') {
    this.#seed = seed;
  }

  bytes(length: number): Uint8Array {
    const out = Buffer.alloc(length);
    for (let offset = 0; offset < length; offset += 32) {
      const block = createHash('sha256')
        .update(`${this.#seed}:${this.#counter++}`)
        .digest();
      block.copy(out, offset, 0, Math.min(32, length - offset));
    }
    return out;
  }
}
