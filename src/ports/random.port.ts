import type { RandomSource } from '../crypto/random-source.js';
import { token } from './token.js';

/** Cryptographically strong randomness (session ids, wrap keypairs, salts, ivs, challenges). */
export type Random = RandomSource;

export const RANDOM = token<Random>('Random');
