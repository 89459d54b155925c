import type { RandomSource } from '../../crypto/random-source.js';
import { SRP_GROUP_2048 } from '../../crypto/srp/srp-group.js';
import { pad, toBigInt } from '../../crypto/srp/srp-math.js';
import { Secret } from '../../domain/secret/secret.js';
import { LoginFailedError } from '../../domain/session/session.errors.js';
import { srpClientProve, srpClientStart, srpClientVerifyServer } from '../../domain/srp/srp-client.js';
import type { KeyServerLogin } from '../../ports/key-server.port.js';
import type { Identity } from '../../wire/identity.js';

/** The two SRP-6a round trips as a key-server adapter carries them (in-process or over TLS). */
export interface SrpExchange {
  begin(user: string, A: Buffer): Promise<{ handle: string; salt: Buffer; B: Buffer }>;
  finish(handle: string, M1: Buffer): Promise<{ M2: Buffer; token: string; identity: Identity; expiresAt: number | undefined }>;
}

/**
 * Runs the client side of SRP-6a against a key server. The password is used to compute the proof and
 * never leaves this function; the server must prove it holds the verifier (M2) before its token is
 * accepted.
 */
export async function srpLogin(exchange: SrpExchange, user: string, password: Secret, random: RandomSource): Promise<KeyServerLogin> {
  const ephemeral = srpClientStart(random);
  const { handle, salt, B } = await exchange.begin(user, pad(SRP_GROUP_2048, ephemeral.A));
  const proof = srpClientProve({ user, password: password.reveal(), salt, B: toBigInt(B), ephemeral });
  const result = await exchange.finish(handle, proof.M1);
  if (!srpClientVerifyServer(proof, result.M2)) {
    throw new LoginFailedError('the key server did not prove it holds the verifier');
  }
  return { token: new Secret(result.token), identity: result.identity, expiresAt: result.expiresAt };
}
