import { checkClientKeyForm, prepareClientWrap } from '../../crypto/client-wrap.js';
import type { Right } from '../../wire/acl.js';
import { aliasOf } from '../../wire/alias.js';
import type {
  BatchOperation,
  BatchOutcome,
  DataKeyRequest,
  DecryptRequest,
  DecryptResult,
  EncryptRequest,
  EncryptResult,
  MacResult,
  OpenDataKeyRequest,
  SignRequest,
  SignResult,
  VerifyMacRequest,
  VerifySignatureRequest,
  VerifySignatureResult,
} from '../../wire/crypto-messages.js';
import type { EncryptionContext } from '../../wire/encryption-context.js';
import { keyLengthForNid } from '../../wire/key-length.js';
import type { KeyUse } from '../../wire/key-view.js';
import type { OperationResult } from '../../wire/keyserver-operations.js';
import type { Operation } from '../../wire/operations.js';
import {
  additionalData,
  GCM_IV_BYTES,
  gcmAlgFor,
  gcmDecrypt,
  gcmEncrypt,
  hmacSha256,
  MAC_ALG,
  verifyHmacSha256,
} from '../model/data-crypto.js';
import { openDataKey, readDataKeyHeader, sealDataKey } from '../model/data-key-blob.js';
import { BadRequestError, DecryptFailedError, isKeyServerError, KeyServerError } from '../model/key-server-errors.js';
import type { EngineContext, TokenContext } from './engine-context.js';
import type { KeyRow } from './engine-model.js';
import { requireUsableKey } from './engine-views.js';
import { requireSymmetricKey } from './key-type-fit.js';
import { noteKeyUse, resolvedOf } from './key-use.js';
import { newestOf, newestVersion, usableVersion } from './key-versions.js';
import type { SigningOperations } from './signing-operations.js';

/** What an item of each batch operation asks: the single request's members and its key. */
export interface BatchRequests {
  readonly encrypt: { readonly ttag: string } & EncryptRequest;
  readonly decrypt: { readonly ttag: string } & DecryptRequest;
  readonly mac: { readonly ttag: string; readonly data: Uint8Array };
  readonly verify: { readonly ttag: string } & VerifyMacRequest;
  readonly rewrap: { readonly ttag: string } & DecryptRequest;
  readonly sign: { readonly ttag: string } & SignRequest;
  readonly 'sign.verify': { readonly ttag: string } & VerifySignatureRequest;
  readonly datakey: { readonly ttag: string } & DataKeyRequest;
  readonly 'datakey.open': { readonly ttag: string } & OpenDataKeyRequest;
}

/**
 * A batch item as the engine takes it, parsed where it entered the key server
 * (src/keyserver/protocol/batch-items.ts): its request, or why it was refused (BAD_REQUEST).
 */
export type BatchEntry<T> = { readonly item: T } | { readonly refused: string };

/** A data key made, and a blob's data key opened (docs/spec.md §4.5a items 1, 2): only sealed or wrapped forms of it. */
type DataKeyMade = Omit<OperationResult<'generateDataKey'>, 'resolved'>;
type DataKeyOpened = Omit<OperationResult<'openDataKey'>, 'resolved'>;

/** What one batch item answers when it succeeds. */
export type BatchResult =
  | EncryptResult
  | MacResult
  | DecryptResult
  | { valid: boolean }
  | SignResult
  | VerifySignatureResult
  | DataKeyMade
  | DataKeyOpened;
/** A batch item performed: the key it used (its alias resolved) and its result. */
type ItemDone = { readonly key: KeyRow; readonly result: BatchResult };

/** The last use each batch operation's items write (docs/spec.md §4.23 item 6). */
const BATCH_USES: Readonly<Record<BatchOperation, KeyUse>> = {
  encrypt: 'encrypt',
  decrypt: 'decrypt',
  mac: 'mac',
  verify: 'mac.verify',
  rewrap: 'rewrap',
  sign: 'sign',
  'sign.verify': 'sign.verify',
  datakey: 'datakey',
  'datakey.open': 'datakey.open',
};

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
  sign: [['crypto.sign', 'sign']],
  'sign.verify': [['crypto.verify', 'read']],
  datakey: [['crypto.encrypt', 'encrypt']],
  'datakey.open': [['crypto.decrypt', 'decrypt']],
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
  /** Performs a batch's signing items (docs/spec.md §4.25 items 3, 4). */
  readonly #signing: SigningOperations;

  constructor(ctx: EngineContext, signing: SigningOperations) {
    this.#ctx = ctx;
    this.#signing = signing;
  }

  async encrypt(token: string, ttag: string, request: EncryptRequest): Promise<EncryptResult & { resolved?: string }> {
    const key = await this.#usableKey(await this.#caller(token, 'encrypt'), ttag, 'encrypt', request.context);
    return this.#used(ttag, key, 'encrypt', this.#sealWith(key, request));
  }

  /** A tag that does not verify is DECRYPT_FAILED, as under another context than the ciphertext's (docs/spec.md §4.5b item 3). */
  async decrypt(token: string, ttag: string, request: DecryptRequest): Promise<DecryptResult & { resolved?: string }> {
    const key = await this.#usableKey(await this.#caller(token, 'decrypt'), ttag, 'decrypt', request.context);
    return this.#used(ttag, key, 'decrypt', { plaintext: this.#openWith(key, request) });
  }

  async mac(token: string, ttag: string, data: Uint8Array): Promise<MacResult & { resolved?: string }> {
    const key = await this.#usableKey(await this.#caller(token, 'mac'), ttag, 'mac');
    return this.#used(ttag, key, 'mac', this.#macWith(key, data));
  }

  /** Constant-time comparison of the MAC (operation 12). */
  async verifyMac(token: string, ttag: string, request: VerifyMacRequest): Promise<{ valid: boolean; resolved?: string }> {
    const key = await this.#usableKey(await this.#caller(token, 'verify'), ttag, 'mac');
    return this.#used(ttag, key, 'mac.verify', this.#verifyWith(key, request));
  }

  /**
   * Decrypts by the version the request names (1 when none) and encrypts under the newest version, in
   * the key server: the plaintext never leaves it, and is zeroed once sealed again. Needs both `decrypt`
   * and `encrypt` on the key. It opens and seals again under the request's one context
   * (docs/spec.md §4.5b item 3), so the new ciphertext needs that context as the old one did.
   */
  async rewrap(token: string, ttag: string, request: DecryptRequest): Promise<EncryptResult & { resolved?: string }> {
    const { key, result } = await this.#rewrapWith(await this.#caller(token, 'rewrap'), ttag, request);
    return this.#used(ttag, key, 'rewrap', result);
  }

  /**
   * A fresh data key (docs/spec.md §4.5a item 1), made by `#dataKeyWith`. Needs `crypto.encrypt` and the
   * right `encrypt`; a malformed `clientPubKey` is refused before the token is read.
   */
  async generateDataKey(token: string, ttag: string, request: DataKeyRequest): Promise<OperationResult<'generateDataKey'>> {
    if (request.clientPubKey !== undefined) checkClientKeyForm(request.clientPubKey, BadRequestError);
    const { key, result } = await this.#dataKeyWith(await this.#caller(token, 'datakey'), ttag, request);
    return this.#used(ttag, key, 'datakey', result);
  }

  /**
   * A blob's data key wrapped again (docs/spec.md §4.5a item 2), by `#openedDataKeyWith`. Needs
   * `crypto.decrypt` and the right `decrypt`; a malformed `clientPubKey` is refused before the token is read.
   */
  async openDataKey(token: string, ttag: string, request: OpenDataKeyRequest): Promise<OperationResult<'openDataKey'>> {
    checkClientKeyForm(request.clientPubKey, BadRequestError);
    const { key, result } = await this.#openedDataKeyWith(await this.#caller(token, 'datakey.open'), ttag, request);
    return this.#used(ttag, key, 'datakey.open', result);
  }

  /**
   * One operation on up to MAX_BATCH_ITEMS items, in order. The token and the role operation are checked
   * once for the batch (a refusal there fails the call); an item refused where it entered answers its
   * BAD_REQUEST, its key never read; each other item is authorized on its key and performed on its own,
   * and its refusal or failure is its outcome `{ ok: false, code, message }`.
   */
  async batch<O extends BatchOperation>(
    token: string,
    operation: O,
    entries: readonly BatchEntry<BatchRequests[O]>[],
  ): Promise<BatchOutcome<BatchResult>[]> {
    const caller = await this.#caller(token, operation);
    const perform = this.#items[operation] as (caller: TokenContext, item: BatchRequests[O]) => Promise<ItemDone>;
    const outcomes: BatchOutcome<BatchResult>[] = [];
    for (const entry of entries) {
      // The key an item's alias named, once looked up: its outcome names it, failed or not (docs/spec.md §9.1 `keys`).
      let resolved: { resolved?: string } = {};
      try {
        if ('refused' in entry) throw new BadRequestError(entry.refused);
        const done = await perform(caller, entry.item);
        resolved = resolvedOf(entry.item.ttag, done.key);
        await noteKeyUse(this.#ctx, done.key, BATCH_USES[operation]);
        outcomes.push({ ok: true, result: done.result, ...resolved });
      } catch (error) {
        if (!isKeyServerError(error)) throw error;
        if ('item' in entry && aliasOf(entry.item.ttag) !== undefined) resolved = await this.#resolvedQuietly(entry.item.ttag);
        outcomes.push({ ok: false, code: error.code, message: error.detail, ...resolved });
      }
    }
    return outcomes;
  }

  /** One batch item of each operation, the caller's token and role checked already: the key it used and its result. */
  readonly #items: { readonly [O in BatchOperation]: (caller: TokenContext, item: BatchRequests[O]) => Promise<ItemDone> } = {
    encrypt: async (caller, item) =>
      this.#done(await this.#usableKey(caller, item.ttag, 'encrypt', item.context), (key) => this.#sealWith(key, item)),
    decrypt: async (caller, item) =>
      this.#done(await this.#usableKey(caller, item.ttag, 'decrypt', item.context), (key) => ({ plaintext: this.#openWith(key, item) })),
    mac: async (caller, item) => this.#done(await this.#usableKey(caller, item.ttag, 'mac'), (key) => this.#macWith(key, item.data)),
    verify: async (caller, item) => this.#done(await this.#usableKey(caller, item.ttag, 'mac'), (key) => this.#verifyWith(key, item)),
    rewrap: (caller, item) => this.#rewrapWith(caller, item.ttag, item),
    sign: (caller, item) => this.#signing.signItem(caller, item),
    'sign.verify': (caller, item) => this.#signing.verifyItem(caller, item),
    datakey: (caller, item) => this.#dataKeyWith(caller, item.ttag, item),
    'datakey.open': (caller, item) => this.#openedDataKeyWith(caller, item.ttag, item),
  };

  #done(key: KeyRow, perform: (key: KeyRow) => BatchResult): ItemDone {
    return { key, result: perform(key) };
  }

  /** The ttag a failed item's alias names, when it names one: its outcome says which key it meant. */
  async #resolvedQuietly(reference: string): Promise<{ resolved?: string }> {
    try {
      return resolvedOf(reference, await this.#ctx.auth.keyOrThrow(reference));
    } catch {
      return {};
    }
  }

  async #rewrapWith(caller: TokenContext, ttag: string, request: DecryptRequest): Promise<{ key: KeyRow; result: EncryptResult }> {
    await this.#usableKey(caller, ttag, 'encrypt', request.context);
    const key = await this.#usableKey(caller, ttag, 'decrypt', request.context);
    const plaintext = this.#openWith(key, request);
    try {
      return { key, result: this.#sealWith(key, { plaintext, aad: request.aad, context: request.context }) };
    } finally {
      plaintext.fill(0);
    }
  }

  /**
   * A fresh data key of `keyLen` bytes, the caller's token and role checked already: sealed under the
   * key's newest version, and wrapped to `clientPubKey` (docs/spec.md §3.2, info `keygate datakey v1`)
   * only when one is given. The data key is zeroed once sealed and wrapped. The blob is bound to
   * `context` (docs/spec.md §4.5a item 5). A single request and a batch item (item 7) both make it here.
   */
  async #dataKeyWith(caller: TokenContext, ttag: string, request: DataKeyRequest): Promise<{ key: KeyRow; result: DataKeyMade }> {
    if (request.clientPubKey !== undefined) checkClientKeyForm(request.clientPubKey, BadRequestError);
    const key = await this.#usableKey(caller, ttag, 'encrypt', request.context);
    const wrap =
      request.clientPubKey === undefined
        ? undefined
        : await prepareClientWrap(request.clientPubKey, this.#ctx.random, 'datakey', BadRequestError);
    const { material, version } = newestOf(key);
    const dataKey = this.#ctx.random.bytes(request.keyLen);
    try {
      const blob = sealDataKey(material, version, dataKey, this.#ctx.random.bytes(GCM_IV_BYTES), request.context);
      const wrapped = await wrap?.seal(dataKey);
      return { key, result: { blob, ...(wrapped === undefined ? {} : { wrapped }), keyLen: request.keyLen, version } };
    } finally {
      dataKey.fill(0);
      wrap?.dispose();
    }
  }

  /**
   * The data key of `blob`, wrapped again to `clientPubKey`, the caller's token and role checked already:
   * the version its header names must be usable (KEY_VERSION_NOT_FOUND, KEY_VERSION_RETIRED), and a blob
   * of another key or changed, or opened under another context than its own, is DECRYPT_FAILED. A single
   * request and a batch item both open it here.
   */
  async #openedDataKeyWith(
    caller: TokenContext,
    ttag: string,
    request: OpenDataKeyRequest,
  ): Promise<{ key: KeyRow; result: DataKeyOpened }> {
    checkClientKeyForm(request.clientPubKey, BadRequestError);
    const key = await this.#usableKey(caller, ttag, 'decrypt', request.context);
    const { version, keyLen } = readDataKeyHeader(request.blob);
    const { material } = usableVersion(key, version);
    const wrap = await prepareClientWrap(request.clientPubKey, this.#ctx.random, 'datakey', BadRequestError);
    let dataKey: Buffer | undefined;
    try {
      dataKey = openDataKey(material, request.blob, request.context);
      return { key, result: { wrapped: await wrap.seal(dataKey), keyLen, version } };
    } finally {
      dataKey?.fill(0);
      wrap.dispose();
    }
  }

  /** A single request's use done: noted as the key's last use, its result naming the key an alias resolved to. */
  async #used<R extends object>(reference: string, key: KeyRow, use: KeyUse, result: R): Promise<R & { resolved?: string }> {
    await noteKeyUse(this.#ctx, key, use);
    return { ...result, ...resolvedOf(reference, key) };
  }

  #sealWith(key: KeyRow, request: EncryptRequest): EncryptResult {
    const { material, version } = newestOf(key);
    const iv = Buffer.from(this.#ctx.random.bytes(GCM_IV_BYTES));
    const sealed = gcmEncrypt(material, iv, request.plaintext, additionalData(request.context, request.aad));
    return {
      ciphertext: sealed.ciphertext,
      iv,
      authTag: sealed.authTag,
      alg: gcmAlgFor(keyLengthForNid(key.nid, KeyServerError)),
      version,
    };
  }

  /**
   * The plaintext (the caller zeroes it); DECRYPT_FAILED when the tag does not verify. A request that
   * named no version failed under version 1: when the key has later ones, the detail says so and names
   * the newest (docs/spec.md §4.5 "Default version"), nothing but version numbers.
   */
  #openWith(key: KeyRow, request: DecryptRequest): Buffer {
    const { material } = usableVersion(key, request.version ?? 1);
    const sealed = { ciphertext: request.ciphertext, authTag: request.authTag };
    const additional = additionalData(request.context, request.aad);
    try {
      return gcmDecrypt(material, request.iv, sealed, additional);
    } catch (error) {
      const newest = newestVersion(key);
      if (!(error instanceof DecryptFailedError) || request.version !== undefined || newest === 1) throw error;
      throw new DecryptFailedError(
        `the ciphertext does not decrypt under version 1 of this key (authentication tag mismatch); the key has versions up to ${newest}: pass version, or use sealed`,
      );
    }
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

  /**
   * The key's ACL right and the token's scope, then its expiry, then its state (docs/spec.md §4.6), then
   * its type: every operation here is symmetric (docs/spec.md §4.25 item 1 "Mismatch"). `context` is the
   * request's encryption context, for the ACL's conditions (docs/spec.md §4.5b item 4).
   */
  async #usableKey(caller: TokenContext, ttag: string, right: Right, context?: EncryptionContext): Promise<KeyRow> {
    const key = await this.#ctx.auth.authorizeKey(caller, ttag, right, context);
    requireUsableKey(key, this.#ctx.now());
    requireSymmetricKey(key);
    return key;
  }
}
