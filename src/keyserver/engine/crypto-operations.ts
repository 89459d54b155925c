import type { Right } from '../../wire/acl.js';
import { GCM_IV_BYTES, MAC_ALG, gcmAlgFor, gcmDecrypt, gcmEncrypt, hmacSha256, verifyHmacSha256 } from '../model/data-crypto.js';
import type { BatchOperation, BatchOutcome, DecryptRequest, EncryptRequest, EncryptResult, MacResult, VerifyMacRequest } from '../../wire/crypto-messages.js';
import { BadRequestError, KeyExpiredError, KeyServerError } from '../model/key-server-errors.js';
import { keyLengthForNid } from '../../wire/key-length.js';
import type { Operation } from '../../wire/operations.js';
import type { EngineContext } from './engine-context.js';
import type { KeyRow } from './engine-model.js';
import { isExpired } from './engine-views.js';

/** A batch item as the engine takes it: each member is checked for the batch's operation, item by item. */
export type LooseBatchItem = { readonly ttag: string } & {
  readonly [K in 'plaintext' | 'aad' | 'ciphertext' | 'iv' | 'authTag' | 'data' | 'mac']?: string | undefined;
} & { readonly version?: number | undefined };

/** What one batch item answers when it succeeds. */
export type BatchResult = EncryptResult | MacResult | { plaintext: string } | { valid: boolean };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decode(value: unknown, field: string): Buffer {
  if (typeof value !== 'string' || !BASE64.test(value)) throw new BadRequestError(`${field}: not standard base64`);
  return Buffer.from(value, 'base64');
}

function optional(value: string | undefined, field: string): Buffer | undefined {
  return value === undefined ? undefined : decode(value, field);
}

/**
 * Data cryptography under the raw data key, inside the key server (docs/spec.md §4.5):
 * the key never leaves it. Role, then ACL right, then scope, then expiry. Binary values cross the
 * engine's boundary as standard base64.
 */
export class CryptoOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  async encrypt(token: string, ttag: string, request: EncryptRequest): Promise<EncryptResult> {
    const key = await this.#usableKey(token, ttag, 'crypto.encrypt', 'encrypt');
    const plaintext = decode(request.plaintext, 'plaintext');
    const aad = optional(request.aad, 'aad');
    const iv = Buffer.from(this.#ctx.random.bytes(GCM_IV_BYTES));
    const sealed = gcmEncrypt(key.material, iv, plaintext, aad);
    return {
      ciphertext: sealed.ciphertext.toString('base64'),
      iv: iv.toString('base64'),
      authTag: sealed.authTag.toString('base64'),
      alg: gcmAlgFor(keyLengthForNid(key.nid, KeyServerError)),
      version: 1,
    };
  }

  /** A tag that does not verify is DECRYPT_FAILED. */
  async decrypt(token: string, ttag: string, request: DecryptRequest): Promise<{ plaintext: string }> {
    const key = await this.#usableKey(token, ttag, 'crypto.decrypt', 'decrypt');
    const sealed = { ciphertext: decode(request.ciphertext, 'ciphertext'), authTag: decode(request.authTag, 'authTag') };
    const plaintext = gcmDecrypt(key.material, decode(request.iv, 'iv'), sealed, optional(request.aad, 'aad'));
    return { plaintext: plaintext.toString('base64') };
  }

  async mac(token: string, ttag: string, data: string): Promise<MacResult> {
    const key = await this.#usableKey(token, ttag, 'crypto.mac', 'mac');
    return { mac: hmacSha256(key.material, decode(data, 'data')).toString('base64'), alg: MAC_ALG, version: 1 };
  }

  /** Constant-time comparison of the MAC (operation 12). */
  async verifyMac(token: string, ttag: string, request: VerifyMacRequest): Promise<{ valid: boolean }> {
    const key = await this.#usableKey(token, ttag, 'crypto.mac', 'mac');
    return { valid: verifyHmacSha256(key.material, decode(request.data, 'data'), decode(request.mac, 'mac')) };
  }

  /** Decrypts by version and encrypts under the newest, inside the key server. */
  async rewrap(_token: string, _ttag: string, _request: DecryptRequest): Promise<EncryptResult> {
    throw new KeyServerError('KEY_SERVER_FAILED', 'rewrap is not available yet');
  }

  /** One operation on many items; each item's failure is its outcome. */
  async batch(_token: string, _operation: BatchOperation, _items: readonly LooseBatchItem[]): Promise<BatchOutcome<BatchResult>[]> {
    throw new KeyServerError('KEY_SERVER_FAILED', 'batches are not available yet');
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
