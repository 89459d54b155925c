import { KeyTypeMismatchError } from '../model/key-server-errors.js';
import type { KeyRow, SigningKeyRow } from './engine-model.js';

/**
 * Symmetric cryptography (encrypt, decrypt, MAC, MAC verify, rewrap, data keys: docs/spec.md §4.5,
 * §4.5a, §4.22) needs an `aes` key: a signing key's material is a PKCS#8 private key, never an AES or
 * HMAC key, so it is KEY_TYPE_MISMATCH before its bytes are read (docs/spec.md §4.25 item 1 "Mismatch").
 */
export function requireSymmetricKey(key: KeyRow): void {
  if (key.signing !== undefined) throw new KeyTypeMismatchError(`a ${key.signing.type} key signs; it does not encrypt nor MAC`);
}

/** What signing, public keys and publishing need: a signing key (docs/spec.md §4.25 items 1, 7). */
export function requireSigningKey(key: KeyRow): asserts key is KeyRow & { readonly signing: SigningKeyRow } {
  if (key.signing === undefined) throw new KeyTypeMismatchError('an aes key does not sign and has no public key: use a signing key');
}

/**
 * What export takes (docs/spec.md §4.25 item 1 "Export"): any `aes` key; a signing key only when its
 * owner made it `exportable`, and never where the caller asked for an aes key alone (`aesOnly`: the
 * root surface, whose answer has no room for a PKCS#8, docs/spec.md §2.5).
 */
export function requireExportableKind(key: KeyRow, aesOnly: boolean): void {
  if (key.signing === undefined) return;
  if (aesOnly) throw new KeyTypeMismatchError(`a ${key.signing.type} key is exported on /api only`);
  if (!key.signing.exportable) throw new KeyTypeMismatchError('not exportable');
}
