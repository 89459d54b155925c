import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { SRP_GROUP_2048 } from '../../src/crypto/srp/srp-group.js';
import { pad, toBigInt } from '../../src/crypto/srp/srp-math.js';
import { srpClientProve, srpClientStart } from '../../src/domain/srp/srp-client.js';
import type { KeyServerEngine } from '../../src/keyserver/engine/engine.js';

/** Runs the SRP-6a client against an engine directly and answers the issued token. */
export async function loginForToken(engine: KeyServerEngine, user: string, password: string): Promise<string> {
  const ephemeral = srpClientStart(new CryptoRandom());
  const { handle, salt, B } = await engine.login.begin(user, pad(SRP_GROUP_2048, ephemeral.A));
  const proof = srpClientProve({ user, password, salt, B: toBigInt(B), ephemeral });
  return (await engine.login.finish(handle, proof.M1)).token;
}
