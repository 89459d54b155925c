import type { Right } from '../../wire/acl.js';
import { isStandardBase64 } from '../../wire/base64.js';
import {
  type BatchOperation,
  type BatchOutcome,
  type DecryptRequest,
  type DecryptResult,
  type EncryptRequest,
  type EncryptResult,
  MAX_BATCH_ITEMS,
  type MacResult,
  type VerifyMacRequest,
} from '../../wire/crypto-messages.js';
import { keyLengthForNid } from '../../wire/key-length.js';
import type { Operation } from '../../wire/operations.js';
import { GCM_IV_BYTES, gcmAlgFor, gcmDecrypt, gcmEncrypt, hmacSha256, MAC_ALG, verifyHmacSha256 } from '../model/data-crypto.js';
import { BadRequestError, isKeyServerError, KeyExpiredError, KeyServerError } from '../model/key-server-errors.js';
import type { EngineContext, TokenContext } from './engine-context.js';
import type { KeyRow } from './engine-model.js';
import { isExpired } from './engine-views.js';
import { newestOf, usableVersion } from './key-versions.js';

/**
 * A batch item as the engine takes it: each member is checked for the batch's operation, item by item.
 * A binary member is bytes (the embedded path) or standard base64 (the daemon's arguments, decoded here
 * so that a malformed item fails alone).
 */
type LooseBinary = string | Uint8Array | undefined;
export type LooseBatchItem = { readonly ttag: string } & {
  readonly [K in 'plaintext' | 'aad' | 'ciphertext' | 'iv' | 'authTag' | 'data' | 'mac']?: LooseBinary;
} & { readonly version?: number | undefined };

/** What one batch item answers when it succeeds. */
export type BatchResult = EncryptResult | MacResult | DecryptResult | { valid: boolean };

/**
 * The bytes of one item's members. Bytes given as bytes belong to the caller; those decoded here from
 * base64 belong to the item and are zeroed once it is done (`wipe`).
 */
class ItemBytes {
  readonly #decoded: Buffer[] = [];

  required(value: LooseBinary, field: string): Uint8Array {
    if (value === undefined) throw new BadRequestError(`${field}: required`);
    return this.optional(value, field) as Uint8Array;
  }

  optional(value: LooseBinary, field: string): Uint8Array | undefined {
    if (value === undefined || value instanceof Uint8Array) return value;
    if (!isStandardBase64(value)) throw new BadRequestError(`${field}: not standard base64`);
    const decoded = Buffer.from(value, 'base64');
    this.#decoded.push(decoded);
    return decoded;
  }

  wipe(): void {
    for (const decoded of this.#decoded) decoded.fill(0);
  }
}

/** The right and role operation each batch operation needs (rewrap needs those of decrypt and encrypt). */
const NEEDS: Readonly<Record<BatchOperation, readonly (readonly [Operation, Right])[]>> = {
  encrypt: [['crypto.encrypt', 'encrypt']],
  decrypt: [['crypto.decrypt', 'decrypt']],
  mac: [['crypto.mac', 'mac']],
  verify: [['crypto.mac', 'mac']],
  rewrap: [
    ['crypto.decrypt', 'decrypt'],
    ['crypto.encrypt', 'encrypt'],
  ],
};

/**
 * Data cryptography under the raw data key, inside the key server (docs/spec.md §4.5):
 * the key never leaves it. Role, then ACL right, then scope, then expiry, then the key version.
 * Encrypt and MAC use the newest version and name it; decrypt and MAC verify use the version the
 * request names, 1 when it names none (what was made before keys had versions). Binary values cross
 * the engine's boundary as bytes; a plaintext a decryption answers is a fresh array its caller zeroes.
 */
export class CryptoOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  async encrypt(token: string, ttag: string, request: EncryptRequest): Promise<EncryptResult> {
    return this.#sealWith(await this.#usableKey(await this.#caller(token, 'encrypt'), ttag, 'encrypt'), request);
  }

  /** A tag that does not verify is DECRYPT_FAILED. */
  async decrypt(token: string, ttag: string, request: DecryptRequest): Promise<DecryptResult> {
    return { plaintext: this.#openWith(await this.#usableKey(await this.#caller(token, 'decrypt'), ttag, 'decrypt'), request) };
  }

  async mac(token: string, ttag: string, data: Uint8Array): Promise<MacResult> {
    return this.#macWith(await this.#usableKey(await this.#caller(token, 'mac'), ttag, 'mac'), data);
  }

  /** Constant-time comparison of the MAC (operation 12). */
  async verifyMac(token: string, ttag: string, request: VerifyMacRequest): Promise<{ valid: boolean }> {
    return this.#verifyWith(await this.#usableKey(await this.#caller(token, 'verify'), ttag, 'mac'), request);
  }

  /**
   * Decrypts by the version the request names (1 when none) and encrypts under the newest version, in
   * the key server: the plaintext never leaves it, and is zeroed once sealed again. Needs both `decrypt`
   * and `encrypt` on the key.
   */
  async rewrap(token: string, ttag: string, request: DecryptRequest): Promise<EncryptResult> {
    return this.#rewrapWith(await this.#caller(token, 'rewrap'), ttag, request);
  }

  /**
   * One operation on up to MAX_BATCH_ITEMS items, in order. The token and the role operation are checked
   * once for the batch (a refusal there fails the call); each item is then authorized on its key and
   * performed on its own, and its refusal or failure is its outcome `{ ok: false, code, message }`.
   */
  async batch(token: string, operation: BatchOperation, items: readonly LooseBatchItem[]): Promise<BatchOutcome<BatchResult>[]> {
    if (!Array.isArray(items) || items.length > MAX_BATCH_ITEMS) throw new BadRequestError(`items: at most ${MAX_BATCH_ITEMS} items`);
    const caller = await this.#caller(token, operation);
    const outcomes: BatchOutcome<BatchResult>[] = [];
    for (const item of items) {
      const bytes = new ItemBytes();
      try {
        outcomes.push({ ok: true, result: await this.#item(caller, operation, item, bytes) });
      } catch (error) {
        if (!isKeyServerError(error)) throw error;
        outcomes.push({ ok: false, code: error.code, message: error.detail });
      } finally {
        bytes.wipe();
      }
    }
    return outcomes;
  }

  async #item(caller: TokenContext, operation: BatchOperation, item: LooseBatchItem, bytes: ItemBytes): Promise<BatchResult> {
    const ttag = item.ttag;
    if (typeof ttag !== 'string' || ttag.length === 0) throw new BadRequestError('ttag: required');
    switch (operation) {
      case 'encrypt':
        return this.#sealWith(await this.#usableKey(caller, ttag, 'encrypt'), {
          plaintext: bytes.required(item.plaintext, 'plaintext'),
          aad: bytes.optional(item.aad, 'aad'),
        });
      case 'decrypt':
        return { plaintext: this.#openWith(await this.#usableKey(caller, ttag, 'decrypt'), decryptRequestOf(item, bytes)) };
      case 'mac':
        return this.#macWith(await this.#usableKey(caller, ttag, 'mac'), bytes.required(item.data, 'data'));
      case 'verify':
        return this.#verifyWith(await this.#usableKey(caller, ttag, 'mac'), {
          data: bytes.required(item.data, 'data'),
          mac: bytes.required(item.mac, 'mac'),
          version: item.version,
        });
      case 'rewrap':
        return this.#rewrapWith(caller, ttag, decryptRequestOf(item, bytes));
    }
  }

  async #rewrapWith(caller: TokenContext, ttag: string, request: DecryptRequest): Promise<EncryptResult> {
    await this.#usableKey(caller, ttag, 'encrypt');
    const key = await this.#usableKey(caller, ttag, 'decrypt');
    const plaintext = this.#openWith(key, request);
    try {
      return this.#sealWith(key, { plaintext, aad: request.aad });
    } finally {
      plaintext.fill(0);
    }
  }

  #sealWith(key: KeyRow, request: EncryptRequest): EncryptResult {
    const { material, version } = newestOf(key);
    const iv = Buffer.from(this.#ctx.random.bytes(GCM_IV_BYTES));
    const sealed = gcmEncrypt(material, iv, request.plaintext, request.aad);
    return {
      ciphertext: sealed.ciphertext,
      iv,
      authTag: sealed.authTag,
      alg: gcmAlgFor(keyLengthForNid(key.nid, KeyServerError)),
      version,
    };
  }

  /** The plaintext (the caller zeroes it); DECRYPT_FAILED when the tag does not verify. */
  #openWith(key: KeyRow, request: DecryptRequest): Buffer {
    const { material } = usableVersion(key, request.version ?? 1);
    const sealed = { ciphertext: request.ciphertext, authTag: request.authTag };
    return gcmDecrypt(material, request.iv, sealed, request.aad);
  }

  #macWith(key: KeyRow, data: Uint8Array): MacResult {
    const { material, version } = newestOf(key);
    return { mac: hmacSha256(material, data), alg: MAC_ALG, version };
  }

  #verifyWith(key: KeyRow, request: VerifyMacRequest): { valid: boolean } {
    const { material } = usableVersion(key, request.version ?? 1);
    return { valid: verifyHmacSha256(material, request.data, request.mac) };
  }

  /** The token, then the role operations the operation needs (docs/spec.md §4.3 item 2). */
  async #caller(token: string, operation: BatchOperation): Promise<TokenContext> {
    const caller = await this.#ctx.auth.authenticate(token);
    for (const [needed] of NEEDS[operation]) await this.#ctx.auth.requireOperation(caller, needed);
    return caller;
  }

  /** The key's ACL right and the token's scope, then its expiry. */
  async #usableKey(caller: TokenContext, ttag: string, right: Right): Promise<KeyRow> {
    const key = await this.#ctx.auth.authorizeKey(caller, ttag, right);
    if (isExpired(key, this.#ctx.now())) throw new KeyExpiredError();
    return key;
  }
}

function decryptRequestOf(item: LooseBatchItem, bytes: ItemBytes): DecryptRequest {
  return {
    ciphertext: bytes.required(item.ciphertext, 'ciphertext'),
    iv: bytes.required(item.iv, 'iv'),
    authTag: bytes.required(item.authTag, 'authTag'),
    aad: bytes.optional(item.aad, 'aad'),
    version: item.version,
  };
}
