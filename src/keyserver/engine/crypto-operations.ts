import type { Right } from '../../wire/acl.js';
import { GCM_IV_BYTES, MAC_ALG, gcmAlgFor, gcmDecrypt, gcmEncrypt, hmacSha256, verifyHmacSha256 } from '../model/data-crypto.js';
import type { DecryptRequest, DecryptResult, EncryptRequest, EncryptResult, MacResult } from '../../wire/crypto-messages.js';
import { KeyExpiredError, KeyServerError } from '../model/key-server-errors.js';
import { keyLengthForNid } from '../../wire/key-length.js';
import type { Operation } from '../../wire/operations.js';
import type { EngineContext } from './engine-context.js';
import type { KeyRow } from './engine-model.js';
import { isExpired } from './engine-views.js';

/**
 * Data cryptography under the raw data key, inside the key server (docs/spec.md §4.5):
 * the key never leaves it. Role, then ACL right, then scope, then expiry. Binary values cross the
 * engine's boundary as bytes; the plaintext a decryption answers is a fresh array its caller zeroes.
 */
export class CryptoOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  async encrypt(token: string, ttag: string, request: EncryptRequest): Promise<EncryptResult> {
    const key = await this.#usableKey(token, ttag, 'crypto.encrypt', 'encrypt');
    const iv = Buffer.from(this.#ctx.random.bytes(GCM_IV_BYTES));
    const sealed = gcmEncrypt(key.material, iv, request.plaintext, request.aad);
    return { ciphertext: sealed.ciphertext, iv, authTag: sealed.authTag, alg: gcmAlgFor(keyLengthForNid(key.nid, KeyServerError)) };
  }

  /** A tag that does not verify is DECRYPT_FAILED. */
  async decrypt(token: string, ttag: string, request: DecryptRequest): Promise<DecryptResult> {
    const key = await this.#usableKey(token, ttag, 'crypto.decrypt', 'decrypt');
    const sealed = { ciphertext: request.ciphertext, authTag: request.authTag };
    return { plaintext: gcmDecrypt(key.material, request.iv, sealed, request.aad) };
  }

  async mac(token: string, ttag: string, data: Uint8Array): Promise<MacResult> {
    const key = await this.#usableKey(token, ttag, 'crypto.mac', 'mac');
    return { mac: hmacSha256(key.material, data), alg: MAC_ALG };
  }

  /** Constant-time comparison of the MAC (operation 12). */
  async verifyMac(token: string, ttag: string, data: Uint8Array, mac: Uint8Array): Promise<{ valid: boolean }> {
    const key = await this.#usableKey(token, ttag, 'crypto.mac', 'mac');
    return { valid: verifyHmacSha256(key.material, data, mac) };
  }

  async #usableKey(token: string, ttag: string, operation: Operation, right: Right): Promise<KeyRow> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, operation);
    const key = await ctx.auth.authorizeKey(caller, ttag, right);
    if (isExpired(key, ctx.now())) throw new KeyExpiredError();
    return key;
  }
}
