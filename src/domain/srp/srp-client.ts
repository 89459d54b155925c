import { timingSafeEqual } from 'node:crypto';
import type { RandomSource } from '../../crypto/random-source.js';
import { SRP_GROUP_2048, type SrpGroup } from '../../crypto/srp/srp-group.js';
import { clientProof, hash, modPow, multiplier, pad, privateValue, scrambler, serverProof, toBigInt } from '../../crypto/srp/srp-math.js';
import { SrpProtocolError } from './srp.errors.js';

/** The client's ephemeral: secret `a` and public `A = g^a mod N`. */
export interface SrpClientEphemeral {
  readonly a: bigint;
  readonly A: bigint;
}

/** What the client sends to finish, and the server proof it must then receive. */
export interface SrpClientProof {
  readonly M1: Buffer;
  readonly expectedM2: Buffer;
  readonly K: Buffer;
}

/** SRP-6a step 1 (RFC 5054 §2.6): draw `a` (256 bits) and compute `A`. */
export function srpClientStart(random: RandomSource, group: SrpGroup = SRP_GROUP_2048): SrpClientEphemeral {
  const a = toBigInt(random.bytes(32));
  return { a, A: modPow(group.g, a, group.N) };
}

/**
 * SRP-6a step 2: from the server's salt and `B`, compute the session key and the client proof.
 * Refuses `B % N == 0` and `u == 0` (RFC 5054 §2.6). The password is used here and nowhere else.
 */
export function srpClientProve(
  input: { user: string; password: string; salt: Uint8Array; B: bigint; ephemeral: SrpClientEphemeral },
  group: SrpGroup = SRP_GROUP_2048,
): SrpClientProof {
  const { N, g } = group;
  const { a, A } = input.ephemeral;
  if (input.B % N === 0n) throw new SrpProtocolError('illegal server value B');
  const u = scrambler(group, A, input.B);
  if (u === 0n) throw new SrpProtocolError('illegal scrambler u');
  const x = privateValue(input.salt, input.user, input.password);
  const k = multiplier(group);
  let base = (input.B - ((k * modPow(g, x, N)) % N)) % N;
  if (base < 0n) base += N;
  const S = secretOrRefuse(() => modPow(base, a + u * x, N));
  const K = hash(pad(group, S));
  const M1 = clientProof(group, input.user, input.salt, A, input.B, K);
  return { M1, K, expectedM2: serverProof(group, A, M1, K) };
}

/** A degenerate base (B - k*g^x in {0, 1, N - 1}) would give a guessable S (RFC 5054 §2.5.4). */
function secretOrRefuse(compute: () => bigint): bigint {
  try {
    return compute();
  } catch (error) {
    if (error instanceof RangeError) throw new SrpProtocolError('illegal server value B');
    throw error;
  }
}

/** SRP-6a step 3: the client checks the server's proof, so a server without the verifier is caught. */
export function srpClientVerifyServer(proof: SrpClientProof, M2: Uint8Array): boolean {
  return M2.length === proof.expectedM2.length && timingSafeEqual(proof.expectedM2, M2);
}
