import { timingSafeEqual } from 'node:crypto';
import type { RandomSource } from '../../crypto/random-source.js';
import { SRP_GROUP_2048, type SrpGroup } from '../../crypto/srp/srp-group.js';
import { clientProof, hash, modPow, multiplier, pad, scrambler, serverProof, toBigInt } from '../../crypto/srp/srp-math.js';
import { WRONG_PASSWORD_DETAIL, WrongCredentialError } from './key-server-errors.js';

export type { SrpVerifier } from '../../crypto/srp/srp-verifier.js';

/** The server's ephemeral: secret `b` and public `B = k*v + g^b mod N`. */
export interface SrpServerEphemeral {
  readonly b: bigint;
  readonly B: bigint;
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
  if (input.A % N === 0n || input.A <= 0n || input.A >= N) throw new WrongCredentialError('illegal client value A');
  const { b, B } = input.ephemeral;
  const u = scrambler(group, input.A, B);
  const v = toBigInt(input.verifier);
  const S = secretOrRefuse(() => modPow((input.A * modPow(v, u, N)) % N, b, N));
  const K = hash(pad(group, S));
  const expected = clientProof(group, input.user, input.salt, input.A, B, K);
  if (input.M1.length !== expected.length || !timingSafeEqual(expected, input.M1)) {
    throw new WrongCredentialError(WRONG_PASSWORD_DETAIL);
  }
  return { M2: serverProof(group, input.A, input.M1, K), K };
}

/** A degenerate base (A * v^u in {0, 1, N - 1}) would give a guessable S: refused (RFC 5054 §2.5.4). */
function secretOrRefuse(compute: () => bigint): bigint {
  try {
    return compute();
  } catch (error) {
    if (error instanceof RangeError) throw new WrongCredentialError('illegal client value A');
    throw error;
  }
}
