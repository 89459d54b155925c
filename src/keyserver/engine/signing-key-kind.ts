import { isKeyLength, type KeyLength } from '../../wire/key-length.js';
import { ALGS_OF_TYPE, algFits, isSigningType, JWT_MAX_LIFETIME, KEY_TYPES } from '../../wire/key-type.js';
import type { NewKey } from '../../wire/key-view.js';
import { BadRequestError } from '../model/key-server-errors.js';
import type { SigningKeyRow } from './engine-model.js';

/** What a new key is: an `aes` key of a length, or a signing key with its settings. */
export type KeyKind = { readonly keyLen: KeyLength; readonly signing?: undefined } | { readonly signing: SigningKeyRow };

/**
 * Checks what a creation asks for against its type (docs/spec.md §4.25 item 1): `keyLen` only for an
 * `aes` key, `alg`, `exportable: false` and `jwtMaxLifetime` only for a signing key, an `alg` its type
 * fits, a lifetime within its bounds; the defaults filled in.
 */
export function keyKindOf(options: NewKey): KeyKind {
  const type = options.type ?? 'aes';
  if (!KEY_TYPES.includes(type)) throw new BadRequestError(`type: one of ${KEY_TYPES.join(', ')}`);
  if (!isSigningType(type)) {
    if (options.alg !== undefined) throw new BadRequestError('alg: only a signing key has one');
    if (options.exportable === false) throw new BadRequestError('exportable: an aes key is exported under the export right');
    if (options.jwtMaxLifetime !== undefined) throw new BadRequestError('jwtMaxLifetime: only a signing key signs JWTs');
    if (!isKeyLength(options.keyLen)) throw new BadRequestError('keyLen: must be 16, 24 or 32');
    return { keyLen: options.keyLen };
  }
  if (options.keyLen !== undefined) throw new BadRequestError(`keyLen: a ${type} key has no keyLen`);
  const alg = options.alg ?? ALGS_OF_TYPE[type][0]!;
  if (!algFits(type, alg)) throw new BadRequestError(`alg: a ${type} key signs with ${ALGS_OF_TYPE[type].join(', ')}`);
  const lifetime = options.jwtMaxLifetime ?? JWT_MAX_LIFETIME.default;
  if (!Number.isSafeInteger(lifetime) || lifetime < JWT_MAX_LIFETIME.min || lifetime > JWT_MAX_LIFETIME.max)
    throw new BadRequestError(`jwtMaxLifetime: an integer of ${JWT_MAX_LIFETIME.min}..${JWT_MAX_LIFETIME.max} seconds`);
  return { signing: { type, alg, exportable: options.exportable ?? false, published: false, jwtMaxLifetime: lifetime } };
}
