import { randomBytes } from 'node:crypto';
import type { Random } from '../../ports/random.port.js';

/** The operating system's CSPRNG, through node:crypto. */
export class CryptoRandom implements Random {
  bytes(length: number): Uint8Array {
    return randomBytes(length);
  }
}
