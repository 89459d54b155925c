import type { SignRequest, VerifySignatureRequest } from '../../wire/crypto-messages.js';
import { ALGS_OF_TYPE, algFits, hashOfAlg, SIGN_MESSAGE_MAX_BYTES, type SigningAlg } from '../../wire/key-type.js';
import { BadRequestError } from '../model/key-server-errors.js';
import type { SignedInput } from '../model/signature-crypto.js';
import type { KeyRow, SigningKeyRow } from './engine-model.js';
import { requireSigningKey } from './key-type-fit.js';

/**
 * What a sign or verify request signs, checked before its key is read (docs/spec.md §4.25 item 3):
 * exactly one of `message` (at most SIGN_MESSAGE_MAX_BYTES) and `digest` (ECDSA and RSA only, exactly
 * as long as the algorithm's hash). Each refusal is BAD_REQUEST naming the field.
 */
export function signedInputOf(request: SignRequest): SignedInput {
  const { message, digest, alg } = request;
  if ((message === undefined) === (digest === undefined)) throw new BadRequestError('message: exactly one of message and digest');
  if (message !== undefined) {
    if (message.length > SIGN_MESSAGE_MAX_BYTES) throw new BadRequestError(`message: at most ${SIGN_MESSAGE_MAX_BYTES} bytes`);
    return { message };
  }
  const hash = hashOfAlg(alg);
  if (hash === undefined) throw new BadRequestError(`digest: ${alg} signs the message, not a digest`);
  if (digest!.length !== hash.length) throw new BadRequestError(`digest: ${alg} takes a ${hash.length}-byte digest`);
  return { digest: digest! };
}

/** A verify request names one version at most: `version` or `kid`, not both (docs/spec.md §4.25 item 4). */
export function checkVersionChoice(request: VerifySignatureRequest): void {
  if (request.version !== undefined && request.kid !== undefined) throw new BadRequestError('kid: name a version or a kid, not both');
}

/**
 * The key's signing settings: an `aes` key is KEY_TYPE_MISMATCH (docs/spec.md §4.25 item 1), an `alg`
 * its type does not fit BAD_REQUEST naming `alg` (item 2).
 */
export function signingOf(key: KeyRow, alg?: SigningAlg): SigningKeyRow {
  requireSigningKey(key);
  if (alg !== undefined && !algFits(key.signing.type, alg))
    throw new BadRequestError(`alg: a ${key.signing.type} key signs with ${ALGS_OF_TYPE[key.signing.type].join(', ')}`);
  return key.signing;
}
