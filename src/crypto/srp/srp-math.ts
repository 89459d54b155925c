import { createDiffieHellman, createHash, type DiffieHellman } from 'node:crypto';
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

/** A DH context and the byte length of its modulus (what a base is padded to). */
interface Context {
  readonly dh: DiffieHellman;
  readonly length: number;
}

const WARM_UP = 512;
const contexts = new Map<bigint, { readonly warmUp: Context; uses: number; prime?: Context }>();

function contextOf(modulus: bigint): Context {
  const length = byteLengthOf(modulus);
  return { dh: createDiffieHellman(toBytes(modulus, length), Buffer.from([2])), length };
}

/**
 * The OpenSSL DH context to raise to a power modulo N with. Building a context for N runs
 * DH_check, a primality test of N and of (N - 1) / 2 costing about 0.2 s of CPU, once per process:
 * every gateway, daemon and tool that signed anyone in paid it at start. A context for 3N costs
 * nothing to build (a multiple of 3 fails that test at its first trial division) and gives the same
 * power once reduced mod N, each one costing 1.5 to 2 times as much (a modulus one word longer is
 * off OpenSSL's fastest path). So a process raises its first `WARM_UP` powers with it, which together
 * cost about what the test costs, and builds the context for N only then: a short-lived process
 * never pays the test, a long-lived one pays at most about twice what it would have.
 */
function contextFor(modulus: bigint): Context {
  let found = contexts.get(modulus);
  if (found === undefined) {
    found = { warmUp: contextOf(3n * modulus), uses: 0 };
    contexts.set(modulus, found);
  }
  if (found.prime === undefined && found.uses++ >= WARM_UP) found.prime = contextOf(modulus);
  return found.prime ?? found.warmUp;
}

function byteLengthOf(value: bigint): number {
  return Math.ceil(value.toString(16).length / 2);
}

/**
 * base^exponent mod modulus, computed by OpenSSL (DH_compute_key: Montgomery exponentiation with the
 * exponent flagged BN_FLG_CONSTTIME), so the time does not depend on the secret exponent; modulo 3N
 * or N (`contextFor`), the answer reduced mod N either way. A degenerate base (0, 1 or modulus - 1
 * after reduction) is refused with a RangeError: SRP never needs one from an honest peer
 * (RFC 5054 §2.5.4 aborts on such values).
 */
export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (exponent <= 0n) throw new RangeError('exponent must be positive');
  let b = base % modulus;
  if (b < 0n) b += modulus;
  if (b <= 1n || b === modulus - 1n) throw new RangeError('degenerate base');
  const { dh, length } = contextFor(modulus);
  dh.setPrivateKey(toBytes(exponent, Math.max(byteLengthOf(exponent), 1)));
  return toBigInt(dh.computeSecret(toBytes(b, length))) % modulus;
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
