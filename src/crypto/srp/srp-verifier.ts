import type { RandomSource } from '../random-source.js';
import { SRP_GROUP_2048, type SrpGroup } from './srp-group.js';
import { modPow, privateValue, toBytes } from './srp-math.js';

/** The verifier record a key server keeps instead of a password. */
export interface SrpVerifier {
  readonly salt: Buffer;
  readonly verifier: Buffer;
}

/** Makes the salt (16 random bytes) and verifier `v = g^x mod N` for a new password. */
export function srpCreateVerifier(user: string, password: string, random: RandomSource, group: SrpGroup = SRP_GROUP_2048): SrpVerifier {
  const salt = Buffer.from(random.bytes(16));
  const v = modPow(group.g, privateValue(salt, user, password), group.N);
  return { salt, verifier: toBytes(v, group.byteLength) };
}
