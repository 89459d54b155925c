import { timingSafeEqual } from 'node:crypto';
import type { RandomSource } from '../random-source.js';
import { SRP_GROUP_2048, type SrpGroup } from './srp-group.js';
import { SrpProtocolError } from './srp.errors.js';
import { clientProof, hash, modPow, multiplier, pad, privateValue, scrambler, serverProof, toBigInt, toBytes } from './srp-math.js';

/** The verifier record a key server keeps instead of a password. */
export interface SrpVerifier {
  readonly salt: Buffer;
  readonly verifier: Buffer;
}

/** The server's ephemeral: secret `b` and public `B = k*v + g^b mod N`. */
export interface SrpServerEphemeral {
  readonly b: bigint;
  readonly B: bigint;
}

/** Makes the salt (16 random bytes) and verifier `v = g^x mod N` for a new password. */
export function srpCreateVerifier(user: string, password: string, random: RandomSource, group: SrpGroup = SRP_GROUP_2048): SrpVerifier {
  const salt = Buffer.from(random.bytes(16));
  const v = modPow(group.g, privateValue(salt, user, password), group.N);
  return { salt, verifier: toBytes(v, group.byteLength) };
}

/** SRP-6a server step 1: draw `b` and compute `B`. */
export function srpServerStart(verifier: Uint8Array, random: RandomSource, group: SrpGroup = SRP_GROUP_2048): SrpServerEphemeral {
  const { N, g } = group;
  const b = toBigInt(random.bytes(32));
  const B = (multiplier(group) * toBigInt(verifier) + modPow(g, b, N)) % N;
  return { b, B };
}

/**
 * SRP-6a server step 2: checks the client's proof in constant time and returns the server proof.
 * Refuses `A % N == 0` (RFC 5054 §2.6). A wrong password surfaces here as a proof mismatch.
 */
export function srpServerVerify(
  input: { user: string; salt: Uint8Array; verifier: Uint8Array; A: bigint; M1: Uint8Array; ephemeral: SrpServerEphemeral },
  group: SrpGroup = SRP_GROUP_2048,
): { M2: Buffer; K: Buffer } {
  const { N } = group;
  if (input.A % N === 0n || input.A <= 0n || input.A >= N) throw new SrpProtocolError('illegal client value A');
  const { b, B } = input.ephemeral;
  const u = scrambler(group, input.A, B);
  const v = toBigInt(input.verifier);
  const S = modPow((input.A * modPow(v, u, N)) % N, b, N);
  const K = hash(pad(group, S));
  const expected = clientProof(group, input.user, input.salt, input.A, B, K);
  if (input.M1.length !== expected.length || !timingSafeEqual(expected, input.M1)) {
    throw new SrpProtocolError('WRONG_CREDENTIAL');
  }
  return { M2: serverProof(group, input.A, input.M1, K), K };
}
