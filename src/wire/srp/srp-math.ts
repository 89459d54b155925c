import { createHash } from 'node:crypto';
import type { SrpGroup } from './srp-group.js';

/** SHA-256 over the concatenation of the parts. */
export function hash(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const part of parts) h.update(part);
  return h.digest();
}

export function toBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
}

/** Big-endian bytes of `value`, left-padded to `length` (RFC 5054 PAD()). */
export function toBytes(value: bigint, length: number): Buffer {
  const hex = value.toString(16).padStart(length * 2, '0');
  if (hex.length > length * 2) throw new RangeError('value does not fit');
  return Buffer.from(hex, 'hex');
}

export function pad(group: SrpGroup, value: bigint): Buffer {
  return toBytes(value, group.byteLength);
}

/** base^exponent mod modulus, square-and-multiply over the exponent's bits. */
export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  if (b < 0n) b += modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    e >>= 1n;
    if (e > 0n) b = (b * b) % modulus;
  }
  return result;
}

/** k = H(N | PAD(g)) */
export function multiplier(group: SrpGroup): bigint {
  return toBigInt(hash(pad(group, group.N), pad(group, group.g)));
}

/** u = H(PAD(A) | PAD(B)) */
export function scrambler(group: SrpGroup, A: bigint, B: bigint): bigint {
  return toBigInt(hash(pad(group, A), pad(group, B)));
}

/** x = H(s | H(I | ":" | P)) */
export function privateValue(salt: Uint8Array, user: string, password: string): bigint {
  const inner = hash(Buffer.from(`${user}:${password}`, 'utf8'));
  return toBigInt(hash(salt, inner));
}

/** M1 = H(H(N) xor H(g) | H(I) | s | PAD(A) | PAD(B) | K) */
export function clientProof(group: SrpGroup, user: string, salt: Uint8Array, A: bigint, B: bigint, K: Uint8Array): Buffer {
  const hN = hash(pad(group, group.N));
  const hg = hash(pad(group, group.g));
  const xor = Buffer.alloc(hN.length);
  for (let i = 0; i < hN.length; i++) xor[i] = hN[i]! ^ hg[i]!;
  return hash(xor, hash(Buffer.from(user, 'utf8')), salt, pad(group, A), pad(group, B), K);
}

/** M2 = H(PAD(A) | M1 | K) */
export function serverProof(group: SrpGroup, A: bigint, M1: Uint8Array, K: Uint8Array): Buffer {
  return hash(pad(group, A), M1, K);
}
