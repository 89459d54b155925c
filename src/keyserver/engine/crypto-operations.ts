import type { Right } from '../../domain/acl/acl.js';
import { GCM_IV_BYTES, MAC_ALG, gcmAlgFor, gcmDecrypt, gcmEncrypt, hmacSha256, verifyHmacSha256 } from '../../domain/crypto/data-crypto.js';
import type { DecryptRequest, EncryptRequest, EncryptResult, MacResult } from '../../domain/crypto/crypto-messages.js';
import { BadRequestError } from '../../domain/errors/index.js';
import { KeyExpiredError } from '../../domain/key/key.errors.js';
import { keyLengthForNid } from '../../domain/keywrap/key-length.js';
import type { Operation } from '../../domain/roles/operations.js';
import type { KeyServerEngine } from './engine.js';
import type { KeyRow } from './engine-model.js';
import { isExpired } from './engine-views.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decode(value: unknown, field: string): Buffer {
  if (typeof value !== 'string' || !BASE64.test(value)) throw new BadRequestError(`${field}: not standard base64`);
  return Buffer.from(value, 'base64');
}

function optional(value: string | undefined, field: string): Buffer | undefined {
  return value === undefined ? undefined : decode(value, field);
}

/**
 * Data cryptography under the raw data key, inside the key server (api-surface.md operations 9-12):
 * the key never leaves it. Role, then ACL right, then scope, then expiry. Binary values cross the
 * engine's boundary as standard base64.
 */
export class CryptoOperations {
  readonly #engine: KeyServerEngine;

  constructor(engine: KeyServerEngine) {
    this.#engine = engine;
  }

  encrypt(token: string, ttag: string, request: EncryptRequest): EncryptResult {
    const key = this.#usableKey(token, ttag, 'crypto.encrypt', 'encrypt');
    const plaintext = decode(request.plaintext, 'plaintext');
    const aad = optional(request.aad, 'aad');
    const iv = Buffer.from(this.#engine.random.bytes(GCM_IV_BYTES));
    const sealed = gcmEncrypt(key.material, iv, plaintext, aad);
    return {
      ciphertext: sealed.ciphertext.toString('base64'),
      iv: iv.toString('base64'),
      authTag: sealed.authTag.toString('base64'),
      alg: gcmAlgFor(keyLengthForNid(key.nid)),
    };
  }

  /** A tag that does not verify is DECRYPT_FAILED. */
  decrypt(token: string, ttag: string, request: DecryptRequest): { plaintext: string } {
    const key = this.#usableKey(token, ttag, 'crypto.decrypt', 'decrypt');
    const sealed = { ciphertext: decode(request.ciphertext, 'ciphertext'), authTag: decode(request.authTag, 'authTag') };
    const plaintext = gcmDecrypt(key.material, decode(request.iv, 'iv'), sealed, optional(request.aad, 'aad'));
    return { plaintext: plaintext.toString('base64') };
  }

  mac(token: string, ttag: string, data: string): MacResult {
    const key = this.#usableKey(token, ttag, 'crypto.mac', 'mac');
    return { mac: hmacSha256(key.material, decode(data, 'data')).toString('base64'), alg: MAC_ALG };
  }

  /** Constant-time comparison of the MAC (operation 12). */
  verifyMac(token: string, ttag: string, data: string, mac: string): { valid: boolean } {
    const key = this.#usableKey(token, ttag, 'crypto.mac', 'mac');
    return { valid: verifyHmacSha256(key.material, decode(data, 'data'), decode(mac, 'mac')) };
  }

  #usableKey(token: string, ttag: string, operation: Operation, right: Right): KeyRow {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, operation);
    const key = engine.authorizeKey(caller, ttag, right);
    if (isExpired(key, engine.now())) throw new KeyExpiredError();
    return key;
  }
}
