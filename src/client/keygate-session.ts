import type { EncryptionContext } from '../wire/encryption-context.js';
import type {
  AccessView,
  AclEntry,
  AclView,
  AliasView,
  BatchItemResult,
  Data,
  ExportedKey,
  ExportedSigningKey,
  GrantConditions,
  Jwks,
  KeyListQuery,
  KeySummary,
  KeyVersionView,
  KeyView,
  ListView,
  MacView,
  NewKeyRequest,
  PublicKeyView,
  Retryable,
  Right,
  Sealed,
  SessionListItem,
  SessionView,
  SignatureView,
  SignedJwt,
  SignInput,
  SigningAlg,
  VerifyInput,
  VerifyView,
} from './api-types.js';
import { type Bytes, base64ToBase64url, fromBase64, toBase64, utf8 } from './base64.js';
import { ExportKey, type WrappedKey } from './export-key.js';
import { ProofKey } from './proof-key.js';
import { type ApiRequest, send, type TransportOptions } from './transport.js';
import type { XWingWrappedKey } from './xwing-key.js';

export interface ScopedSessionRequest {
  /** The keys (ttags) the session may reach, 1 to 100. */
  readonly objects: readonly string[];
  /** Defaults, at the gateway, to every right the minter holds on each listed object. */
  readonly rights?: readonly Right[];
  /** 60 to 900; the gateway's default is 300. */
  readonly ttlSeconds?: number;
  /** The key the session is bound to; a new non-extractable one when not given. */
  readonly proofKey?: ProofKey;
}

/** A data key (docs/spec.md §4.5a): its blob to store beside the data, and the key itself when it was delivered. */
/** A wrap of either kind, as the /api answers it (docs/spec.md §3.2, §3.4). */
export type ClientWrapped = WrappedKey | XWingWrappedKey;

/** A client key for one request: the public key sent as `clientPubKey`, and the opening of what is wrapped to it. */
export interface ClientKey {
  readonly publicKey: string;
  unwrap(wrapped: ClientWrapped): Promise<Bytes>;
  unwrapDataKey(wrapped: ClientWrapped): Promise<Bytes>;
}

/**
 * The option of the methods that receive a wrapped key: `clientKey` makes the fresh key each request
 * sends (docs/spec.md §3.4 item 3): `newXWingKeyPair` for the post-quantum HPKE wrap of §3.4; without
 * it a fresh non-extractable P-256 ECDH key (§3.2). A maker, not a key, so that no key serves twice;
 * and passed in, so that a page that never asks for X-Wing does not bundle it.
 */
export interface WrapOption {
  readonly clientKey?: () => Promise<ClientKey>;
}

export interface DataKey {
  /** The data key sealed under the key's `version`, standard base64: what `openDataKey` takes back. */
  readonly blob: string;
  /** The raw data key, unwrapped here; absent when it was not asked for (`deliver: false`). */
  readonly key?: Bytes;
  readonly keyLen: 16 | 24 | 32;
  readonly version: number;
}

/**
 * One gateway session: the session id (a secret, kept in a private field) and, for a bound session,
 * the proof key every request is signed with. Each method is one /api operation.
 */
export class KeygateSession {
  readonly #options: TransportOptions;
  readonly #sessionId: string;
  /** The key this session is bound to; undefined for an unbound session. */
  readonly proofKey: ProofKey | undefined;
  /** The session view answered when the session was minted, when it was minted by this client. */
  readonly view: SessionView | undefined;

  constructor(options: TransportOptions, sessionId: string, proofKey: ProofKey | undefined, view?: SessionView) {
    this.#options = options;
    this.#sessionId = sessionId;
    this.proofKey = proofKey;
    this.view = view;
  }

  /** From a minting answer: the view is kept without its session id. */
  static fromMinted(options: TransportOptions, minted: SessionView, proofKey: ProofKey | undefined): KeygateSession {
    const { sessionId, ...view } = minted;
    if (typeof sessionId !== 'string') throw new TypeError('the gateway answered a minted session without sessionId');
    return new KeygateSession(options, sessionId, proofKey, view);
  }

  /** The bearer value, for a page that keeps it (sessionStorage) to resume after a reload. */
  get sessionId(): string {
    return this.#sessionId;
  }

  get bound(): boolean {
    return this.proofKey !== undefined;
  }

  /** Never the session id. */
  toJSON(): Record<string, unknown> {
    return { view: this.view, bound: this.bound, ...(this.proofKey ? { jkt: this.proofKey.jkt } : {}) };
  }

  // Sessions

  /** GET /api/session: the view of this session. */
  inspect(): Promise<SessionView> {
    return this.#call({ method: 'GET', path: '/api/session' });
  }

  /** GET /api/sessions: the live sessions of this principal, by non-secret reference. */
  listSessions(): Promise<ListView<SessionListItem>> {
    return this.#call({ method: 'GET', path: '/api/sessions' });
  }

  /** POST /api/session/scoped: a minutes-long session narrowed to `objects`, bound to a page key. */
  async mintScoped(request: ScopedSessionRequest): Promise<KeygateSession> {
    const proofKey = request.proofKey ?? (await ProofKey.generate());
    const body = {
      objects: request.objects,
      senderKey: proofKey.publicJwk,
      ...(request.rights === undefined ? {} : { rights: request.rights }),
      ...(request.ttlSeconds === undefined ? {} : { ttlSeconds: request.ttlSeconds }),
    };
    const minted = await this.#call<SessionView>({ method: 'POST', path: '/api/session/scoped', body });
    return KeygateSession.fromMinted(this.#options, minted, proofKey);
  }

  /** DELETE /api/session: ends this session (a bound one signs this request too). */
  async logout(): Promise<void> {
    await this.#call({ method: 'DELETE', path: '/api/session' });
  }

  // Key lifecycle

  /** POST /api/keys: a new key owned by this session's principal. */
  createKey(request: NewKeyRequest = {}, options: Retryable = {}): Promise<KeyView> {
    const expiresAt = request.expiresAt instanceof Date ? request.expiresAt.toISOString() : request.expiresAt;
    const body = { ...request, ...(expiresAt === undefined ? {} : { expiresAt }) };
    return this.#call({ method: 'POST', path: '/api/keys', body, ...idempotency(options) });
  }

  /** POST /api/keys/{ttag}/rotate: adds the key's next version (owner, or the right `rotate`). */
  rotateKey(ttag: string, options: Retryable = {}): Promise<KeyView> {
    return this.#call({ method: 'POST', path: `${keyPath(ttag)}/rotate`, ...idempotency(options) });
  }

  /** PUT /api/keys/{ttag}/min-version (owner): retires the versions below `minVersion`; it never goes down. */
  setMinVersion(ttag: string, minVersion: number): Promise<KeyView> {
    return this.#call({ method: 'PUT', path: `${keyPath(ttag)}/min-version`, body: { minVersion } });
  }

  /** GET /api/keys/{ttag}: the key view (never key material). */
  readKey(ttag: string): Promise<KeyView> {
    return this.#call({ method: 'GET', path: keyPath(ttag) });
  }

  /** GET /api/keys/{ttag}/versions: a page of the key's versions, newest first (limit 1..1000; `next` leads on). */
  keyVersions(ttag: string, page: { limit?: number; cursor?: string } = {}): Promise<ListView<KeyVersionView>> {
    const query = new URLSearchParams();
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    if (page.cursor !== undefined) query.set('cursor', page.cursor);
    const search = query.size === 0 ? '' : `?${query.toString()}`;
    return this.#call({ method: 'GET', path: `${keyPath(ttag)}/versions${search}` });
  }

  /** GET /api/keys: a page of the keys the caller may use, newest first, filtered (docs/spec.md §4.23 item 1; `next` leads on). */
  listKeys(query: KeyListQuery = {}): Promise<ListView<KeySummary>> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) search.append(name, String(one));
    }
    return this.#call({ method: 'GET', path: `/api/keys${search.size === 0 ? '' : `?${search.toString()}`}` });
  }

  /** PUT /api/keys/{ttag}/tags/{name}: sets one tag, replacing its value (owner or the right `tag`; at most 50 a key). */
  tagKey(ttag: string, name: string, value: string): Promise<{ name: string; value: string }> {
    return this.#call({ method: 'PUT', path: `${keyPath(ttag)}/tags/${encodeURIComponent(name)}`, body: { value } });
  }

  /** DELETE /api/keys/{ttag}/tags/{name}: deletes one tag; one the key does not carry changes nothing. */
  async untagKey(ttag: string, name: string): Promise<void> {
    await this.#call({ method: 'DELETE', path: `${keyPath(ttag)}/tags/${encodeURIComponent(name)}` });
  }

  /** POST /api/keys/{ttag}/expire: owner only; the key then refuses export and cryptography. */
  expireKey(ttag: string): Promise<KeyView> {
    return this.#call({ method: 'POST', path: `${keyPath(ttag)}/expire` });
  }

  /** POST /api/keys/{ttag}/disable: owner only; the key refuses export and cryptography until enabled (docs/spec.md §4.6). */
  disableKey(ttag: string): Promise<KeyView> {
    return this.#call({ method: 'POST', path: `${keyPath(ttag)}/disable` });
  }

  /** POST /api/keys/{ttag}/enable: owner only; a disabled key is active again, with every version it had. */
  enableKey(ttag: string): Promise<KeyView> {
    return this.#call({ method: 'POST', path: `${keyPath(ttag)}/enable` });
  }

  /**
   * POST /api/keys/{ttag}/schedule-deletion: owner only; the key refuses its material until cancelled,
   * and is destroyed `pendingDays` days on (the key server's maximum when not given; docs/spec.md §4.23 item 5).
   */
  scheduleKeyDeletion(ttag: string, options: { readonly pendingDays?: number } = {}): Promise<KeyView> {
    const body = options.pendingDays === undefined ? {} : { pendingDays: options.pendingDays };
    return this.#call({ method: 'POST', path: `${keyPath(ttag)}/schedule-deletion`, body });
  }

  /** POST /api/keys/{ttag}/cancel-deletion: owner only; the key comes back disabled (or expired), never active. */
  cancelKeyDeletion(ttag: string): Promise<KeyView> {
    return this.#call({ method: 'POST', path: `${keyPath(ttag)}/cancel-deletion` });
  }

  /**
   * POST /api/keys/{ttag}/export, opened here: a fresh non-extractable ECDH key per export, its
   * public point sent as `clientPubKey`, the envelope unwrapped with WebCrypto (docs/spec.md §3); with
   * `clientKey: newXWingKeyPair`, a fresh X-Wing key pair and the HPKE wrap of §3.4 instead.
   * A signing key's export is `exportSigningKey`.
   */
  async exportKey(ttag: string, options: { readonly version?: number } & WrapOption = {}): Promise<ExportedKey> {
    const { key, reply } = await this.#export<{ algo: string; keyLen: ExportedKey['keyLen']; version?: number }>(ttag, options);
    if (key.length !== reply.keyLen) throw new TypeError(`the export opened to ${key.length} bytes, keyLen says ${reply.keyLen}`);
    return { key, keyLen: reply.keyLen, algo: reply.algo, ...optionalVersion(reply.version) };
  }

  /**
   * POST /api/keys/{ttag}/export of a signing key made `exportable`: its private key as PKCS#8 DER,
   * wrapped by the key server exactly as an aes key is and opened here (docs/spec.md §4.25 item 1).
   */
  async exportSigningKey(ttag: string, options: { readonly version?: number } & WrapOption = {}): Promise<ExportedSigningKey> {
    const { key, reply } = await this.#export<Omit<ExportedSigningKey, 'key'>>(ttag, options);
    if (reply.format !== 'pkcs8') throw new TypeError(`the export answered format ${String(reply.format)}, not pkcs8`);
    return { key, type: reply.type, format: reply.format, version: reply.version };
  }

  /** POST /api/keys/{ttag}/export of a key of either kind, told apart by the answer: an aes key's raw bytes or a signing key's PKCS#8. */
  async exportAnyKey(ttag: string, options: { readonly version?: number } & WrapOption = {}): Promise<ExportedKey | ExportedSigningKey> {
    const { key, reply } = await this.#export<Partial<Omit<ExportedSigningKey, 'key'>> & Partial<Omit<ExportedKey, 'key'>>>(ttag, options);
    if (reply.format === 'pkcs8' && reply.type !== undefined && reply.version !== undefined)
      return { key, type: reply.type, format: reply.format, version: reply.version };
    if (reply.keyLen === undefined || key.length !== reply.keyLen)
      throw new TypeError(`the export opened to ${key.length} bytes, keyLen says ${reply.keyLen}`);
    return { key, keyLen: reply.keyLen, algo: reply.algo ?? '', ...optionalVersion(reply.version) };
  }

  /** The export request with a fresh client key of the kind asked made for it, and its envelope opened. */
  async #export<T>(ttag: string, options: { readonly version?: number } & WrapOption): Promise<{ key: Bytes; reply: T }> {
    const clientKey = await newClientKey(options);
    const reply = await this.#call<T & { wrapped: ClientWrapped }>({
      method: 'POST',
      path: `${keyPath(ttag)}/export`,
      body: { clientPubKey: clientKey.publicKey, ...optionalVersion(options.version) },
    });
    return { key: await clientKey.unwrap(reply.wrapped), reply };
  }

  /**
   * POST /api/crypto/datakey: a fresh data key of `keyLen` bytes (default 32) sealed under the key's
   * newest version, and, unless `deliver` is false, wrapped to a fresh non-extractable ECDH key made
   * here and unwrapped with WebCrypto (docs/spec.md §4.5a), or to a fresh X-Wing key pair with
   * `clientKey: newXWingKeyPair` (§3.4). Without delivery only the blob is answered.
   * `context` (docs/spec.md §4.5b) is bound in the blob: `openDataKey` needs the same one.
   */
  async generateDataKey(
    ttag: string,
    options: { readonly keyLen?: 16 | 24 | 32; readonly deliver?: boolean; readonly context?: EncryptionContext } & WrapOption = {},
  ): Promise<DataKey> {
    const clientKey = options.deliver === false ? undefined : await newClientKey(options);
    const reply = await this.#call<{ blob: string; wrapped?: ClientWrapped; keyLen: DataKey['keyLen']; version: number }>({
      method: 'POST',
      path: '/api/crypto/datakey',
      body: {
        ttag,
        ...(options.keyLen === undefined ? {} : { keyLen: options.keyLen }),
        ...(clientKey && { clientPubKey: clientKey.publicKey }),
        ...optionalContext(options.context),
      },
    });
    const { blob, keyLen, version } = reply;
    if (clientKey === undefined || reply.wrapped === undefined) return { blob, keyLen, version };
    return { blob, key: await dataKeyOf(clientKey, reply.wrapped, keyLen), keyLen, version };
  }

  /**
   * POST /api/crypto/datakey/open: the data key of a blob, wrapped to a fresh ECDH key made here (or
   * X-Wing key pair, `clientKey: newXWingKeyPair`) and unwrapped (docs/spec.md §4.5a, §3.4); `context`
   * the one the blob was made with (400 DECRYPT_FAILED otherwise).
   */
  async openDataKey(
    ttag: string,
    blob: string,
    options: { readonly context?: EncryptionContext } & WrapOption = {},
  ): Promise<Required<Omit<DataKey, 'blob'>>> {
    const clientKey = await newClientKey(options);
    const reply = await this.#call<{ wrapped: ClientWrapped; keyLen: DataKey['keyLen']; version: number }>({
      method: 'POST',
      path: '/api/crypto/datakey/open',
      body: { ttag, blob, clientPubKey: clientKey.publicKey, ...optionalContext(options.context) },
    });
    return { key: await dataKeyOf(clientKey, reply.wrapped, reply.keyLen), keyLen: reply.keyLen, version: reply.version };
  }

  /**
   * POST /api/crypto/datakey with `{ items }` (docs/spec.md §4.5a item 7): up to 1000 data keys in one
   * request, one result per item in order; one item's failure (its `error`) does not fail the others.
   * Each item is as `generateDataKey` takes it, with the encryption context its blob is bound to
   * (docs/spec.md §4.5b), when it has one; the delivered ones are wrapped to one fresh
   * non-extractable ECDH key made here for the batch (each wrap has its own ephemeral key, salt and iv).
   */
  async generateDataKeys(
    items: readonly {
      readonly ttag: string;
      readonly keyLen?: 16 | 24 | 32;
      readonly deliver?: boolean;
      readonly context?: EncryptionContext;
    }[],
  ): Promise<BatchItemResult<DataKey>[]> {
    const clientKey = items.some((item) => item.deliver !== false) ? await ExportKey.generate() : undefined;
    const body = items.map((item) => ({
      ttag: item.ttag,
      ...(item.keyLen === undefined ? {} : { keyLen: item.keyLen }),
      ...(clientKey && item.deliver !== false && { clientPubKey: clientKey.publicKey }),
      ...optionalContext(item.context),
    }));
    type Made = BatchItemResult<{ blob: string; wrapped?: WrappedKey; keyLen: DataKey['keyLen']; version: number }>;
    const reply = await this.#call<{ items: Made[] }>({ method: 'POST', path: '/api/crypto/datakey', body: { items: body } });
    return Promise.all(
      reply.items.map(async (item): Promise<BatchItemResult<DataKey>> => {
        if (!item.ok) return item;
        const { blob, keyLen, version } = item;
        if (clientKey === undefined || item.wrapped === undefined) return { ok: true, blob, keyLen, version };
        return { ok: true, blob, key: await dataKeyOf(clientKey, item.wrapped, keyLen), keyLen, version };
      }),
    );
  }

  /**
   * POST /api/crypto/datakey/open with `{ items }` (docs/spec.md §4.5a item 7): up to 1000 blobs opened
   * in one request, one result per item in order, each data key wrapped to one fresh ECDH key made here
   * for the batch and unwrapped; one item's failure (its `error`) does not fail the others.
   */
  async openDataKeys(
    items: readonly { readonly ttag: string; readonly blob: string; readonly context?: EncryptionContext }[],
  ): Promise<BatchItemResult<Required<Omit<DataKey, 'blob'>>>[]> {
    const clientKey = await ExportKey.generate();
    const body = items.map((item) => ({
      ttag: item.ttag,
      blob: item.blob,
      clientPubKey: clientKey.publicKey,
      ...optionalContext(item.context),
    }));
    type Opened = BatchItemResult<{ wrapped: WrappedKey; keyLen: DataKey['keyLen']; version: number }>;
    const reply = await this.#call<{ items: Opened[] }>({ method: 'POST', path: '/api/crypto/datakey/open', body: { items: body } });
    return Promise.all(
      reply.items.map(async (item): Promise<BatchItemResult<Required<Omit<DataKey, 'blob'>>>> => {
        if (!item.ok) return item;
        return { ok: true, key: await dataKeyOf(clientKey, item.wrapped, item.keyLen), keyLen: item.keyLen, version: item.version };
      }),
    );
  }

  // Data cryptography

  /**
   * POST /api/crypto/encrypt: AES-GCM under the key (A128/192/256GCM by its length), bound to `aad` and
   * to `context` (docs/spec.md §4.5b), each needed again to decrypt.
   */
  encrypt(ttag: string, plaintext: Data, aad?: Data, context?: EncryptionContext): Promise<Sealed> {
    return this.#call({
      method: 'POST',
      path: '/api/crypto/encrypt',
      body: { ttag, plaintext: b64(plaintext), ...optionalAad(aad), ...optionalContext(context) },
    });
  }

  /**
   * POST /api/crypto/decrypt: the plaintext bytes; a bad tag is 400 DECRYPT_FAILED. `sealed` is an
   * encrypt answer or its sealed text (`kg:v2:...`); the key version is the one it carries, else 1.
   * `aad` and `context` are those it was made with.
   */
  async decrypt(ttag: string, sealed: Sealed | string, aad?: Data, context?: EncryptionContext): Promise<Bytes> {
    const reply = await this.#call<{ plaintext: string }>({
      method: 'POST',
      path: '/api/crypto/decrypt',
      body: sealedBody(ttag, sealed, aad, context),
    });
    return fromBase64(reply.plaintext);
  }

  /**
   * POST /api/crypto/rewrap: `sealed` (under the version it carries, else 1) sealed again under the
   * newest version, inside the key server; the plaintext never leaves it. Needs `decrypt` and `encrypt`.
   * The new ciphertext is bound to the same `aad` and `context` as the old one (docs/spec.md §4.5b item 3).
   */
  rewrap(ttag: string, sealed: Sealed | string, aad?: Data, context?: EncryptionContext): Promise<Sealed> {
    return this.#call({ method: 'POST', path: '/api/crypto/rewrap', body: sealedBody(ttag, sealed, aad, context) });
  }

  /** POST /api/crypto/mac: HMAC-SHA256 under the key's newest version. */
  mac(ttag: string, data: Data): Promise<MacView> {
    return this.#call({ method: 'POST', path: '/api/crypto/mac', body: { ttag, data: b64(data) } });
  }

  /** POST /api/crypto/mac/verify: whether `mac` (standard base64) is the MAC of `data` under `version` (default 1). */
  async verifyMac(ttag: string, data: Data, mac: string, version?: number): Promise<boolean> {
    const body = { ttag, data: b64(data), mac, ...optionalVersion(version) };
    const reply = await this.#call<{ valid: boolean }>({ method: 'POST', path: '/api/crypto/mac/verify', body });
    return reply.valid;
  }

  /**
   * One batch of up to 1000 items of one operation (docs/spec.md §4.22 item 8), each item the body
   * of the single request as the gateway takes it (binary values standard base64): one result per
   * item, in order; one item's failure does not fail the others.
   */
  batch(
    operation: 'encrypt',
    items: readonly { ttag: string; plaintext: string; aad?: string; context?: EncryptionContext }[],
  ): Promise<BatchItemResult<Sealed>[]>;
  batch(
    operation: 'decrypt',
    items: readonly ({ ttag: string; aad?: string; context?: EncryptionContext } & (Sealed | { sealed: string }))[],
  ): Promise<BatchItemResult<{ plaintext: string }>[]>;
  batch(
    operation: 'rewrap',
    items: readonly ({ ttag: string; aad?: string; context?: EncryptionContext } & (Sealed | { sealed: string }))[],
  ): Promise<BatchItemResult<Sealed>[]>;
  batch(operation: 'mac', items: readonly { ttag: string; data: string }[]): Promise<BatchItemResult<MacView>[]>;
  batch(
    operation: 'verify',
    items: readonly { ttag: string; data: string; mac: string; version?: number }[],
  ): Promise<BatchItemResult<{ valid: boolean }>[]>;
  /** Signatures (docs/spec.md §4.25 item 3): each item as `POST /api/crypto/sign` takes it, the signatures standard base64. */
  batch(
    operation: 'sign',
    items: readonly { ttag: string; alg: SigningAlg; message?: string; digest?: string }[],
  ): Promise<BatchItemResult<Omit<SignatureView, 'signature'> & { signature: string }>[]>;
  batch(
    operation: 'sign-verify',
    items: readonly {
      ttag: string;
      alg: SigningAlg;
      message?: string;
      digest?: string;
      signature: string;
      version?: number;
      kid?: string;
    }[],
  ): Promise<BatchItemResult<VerifyView>[]>;
  async batch(operation: keyof typeof BATCH_PATHS, items: readonly object[]): Promise<BatchItemResult<unknown>[]> {
    const body = { items: operation === 'decrypt' || operation === 'rewrap' ? items.map((item) => oneForm(item as Sealed)) : items };
    return (await this.#call<{ items: BatchItemResult<unknown>[] }>({ method: 'POST', path: BATCH_PATHS[operation], body })).items;
  }

  // Signing keys (docs/spec.md §4.25)

  /** POST /api/crypto/sign: signs with the key's newest version (right `sign`); the signature as bytes. */
  async sign(ttag: string, input: SignInput): Promise<SignatureView> {
    const reply = await this.#call<Omit<SignatureView, 'signature'> & { signature: string }>({
      method: 'POST',
      path: '/api/crypto/sign',
      body: { ttag, ...signBody(input) },
    });
    return { ...reply, signature: fromBase64(reply.signature) };
  }

  /**
   * POST /api/crypto/sign/verify: whether `signature` is `input`'s under the version or `kid` given, else
   * under any version not retired; a valid answer names the version and `kid` (right `read`).
   */
  verify(ttag: string, input: VerifyInput): Promise<VerifyView> {
    const { signature, version, kid } = input;
    const body = {
      ttag,
      ...signBody(input),
      signature: typeof signature === 'string' ? signature : toBase64(signature),
      ...optionalVersion(version),
      ...(kid === undefined ? {} : { kid }),
    };
    return this.#call({ method: 'POST', path: '/api/crypto/sign/verify', body });
  }

  /** POST /api/crypto/sign-jwt: a compact JWS of `claims` signed in the key server under the key's `alg` (right `sign`). */
  signJwt(ttag: string, claims: Readonly<Record<string, unknown>>, header?: Readonly<Record<string, string>>): Promise<SignedJwt> {
    return this.#call({
      method: 'POST',
      path: '/api/crypto/sign-jwt',
      body: { ttag, claims, ...(header === undefined ? {} : { header }) },
    });
  }

  /** GET /api/keys/{ttag}/public-key: a version's public key (default the newest) as PEM and JWK. */
  publicKey(ttag: string, version?: number): Promise<PublicKeyView> {
    const search = version === undefined ? '' : `?version=${version}`;
    return this.#call({ method: 'GET', path: `${keyPath(ttag)}/public-key${search}` });
  }

  /** GET /api/keys/{ttag}/jwks: the public keys of the versions not retired, newest first. */
  jwks(ttag: string): Promise<Jwks> {
    return this.#call({ method: 'GET', path: `${keyPath(ttag)}/jwks` });
  }

  /** PUT /api/keys/{ttag}/published (owner): serves the key's JWKS without a session at /jwks/..., or withdraws it. */
  setPublished(ttag: string, published: boolean): Promise<KeyView> {
    return this.#call({ method: 'PUT', path: `${keyPath(ttag)}/published`, body: { published } });
  }

  // Key ACLs

  /** GET /api/keys/{ttag}/acl (owner). */
  readAcl(ttag: string): Promise<AclView> {
    return this.#call({ method: 'GET', path: `${keyPath(ttag)}/acl` });
  }

  /**
   * PUT /api/keys/{ttag}/acl/{principal}: sets (replaces) the principal's rights and conditions (owner);
   * without `conditions` the entry has none (docs/spec.md §4.5b item 4).
   */
  setAclEntry(ttag: string, principal: string, rights: readonly Right[], conditions?: GrantConditions): Promise<AclEntry> {
    const body = conditions === undefined ? { rights } : { rights, conditions };
    return this.#call({ method: 'PUT', path: `${keyPath(ttag)}/acl/${encodeURIComponent(principal)}`, body });
  }

  /** DELETE /api/keys/{ttag}/acl/{principal} (owner). */
  async removeAclEntry(ttag: string, principal: string): Promise<void> {
    await this.#call({ method: 'DELETE', path: `${keyPath(ttag)}/acl/${encodeURIComponent(principal)}` });
  }

  /** GET /api/keys/{ttag}/access: this session's effective rights on the key (held with no condition). */
  async access(ttag: string): Promise<readonly Right[]> {
    return (await this.accessView(ttag)).rights;
  }

  /** GET /api/keys/{ttag}/access whole: the rights, and `conditional`, the conditioned entries, when there are any. */
  accessView(ttag: string): Promise<AccessView> {
    return this.#call({ method: 'GET', path: `${keyPath(ttag)}/access` });
  }

  /** GET /api/aliases: a page of the aliases of the keys this session would see, by name (limit 1..1000; `next` leads on). */
  listAliases(page: { ttag?: string; prefix?: string; limit?: number; cursor?: string } = {}): Promise<ListView<AliasView>> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(page)) if (value !== undefined) query.set(name, String(value));
    const search = query.size === 0 ? '' : `?${query.toString()}`;
    return this.#call({ method: 'GET', path: `/api/aliases${search}` });
  }

  /**
   * PUT /api/aliases/{alias}: makes the alias name the key `ttag` (its owner; moving an alias also takes
   * the owner of the key it named). Then `alias/<alias>` names the key wherever a ttag is taken.
   */
  setAlias(alias: string, ttag: string): Promise<AliasView> {
    return this.#call({ method: 'PUT', path: `/api/aliases/${encodeURIComponent(alias)}`, body: { ttag } });
  }

  /** DELETE /api/aliases/{alias} (the owner of the key it names). */
  async deleteAlias(alias: string): Promise<void> {
    await this.#call({ method: 'DELETE', path: `/api/aliases/${encodeURIComponent(alias)}` });
  }

  /**
   * Any /api operation with this session's credential (and proof, when bound): `path` under the base
   * URL, the JSON body; answers the JSON reply or throws KeygateApiError. keygate-admin.ts builds on it.
   */
  request<T>(method: ApiRequest['method'], path: string, body?: unknown): Promise<T> {
    return this.#call<T>(body === undefined ? { method, path } : { method, path, body });
  }

  #call<T>(request: Omit<ApiRequest, 'credential'>): Promise<T> {
    return send<T>(this.#options, { ...request, credential: { sessionId: this.#sessionId, proofKey: this.proofKey } });
  }
}

/** `{ttag}` in a path: base64url without padding (docs/spec.md §1.4); `alias/<name>` percent-encoded (§4.23 item 3). */
function keyPath(ttag: string): string {
  return `/api/keys/${ttag.startsWith('alias/') ? encodeURIComponent(ttag) : base64ToBase64url(ttag)}`;
}

function b64(data: Data): string {
  return toBase64(typeof data === 'string' ? utf8(data) : data);
}

function optionalAad(aad: Data | undefined): { aad?: string } {
  return aad === undefined ? {} : { aad: b64(aad) };
}

/** The message or the digest of a sign or verify body, standard base64 (docs/spec.md §4.25 item 3). */
function signBody(input: SignInput): { alg: SignInput['alg']; message?: string; digest?: string } {
  if (input.digest !== undefined) return { alg: input.alg, digest: toBase64(input.digest) };
  return { alg: input.alg, message: b64(input.message) };
}

function optionalVersion(version: number | undefined): { version?: number } {
  return version === undefined ? {} : { version };
}

function idempotency(options: Retryable): { headers?: Record<string, string> } {
  return options.idempotencyKey === undefined ? {} : { headers: { 'Idempotency-Key': options.idempotencyKey } };
}

/**
 * A decrypt or rewrap body in one form (docs/spec.md §4.5): the sealed text when there is one, else the
 * separate fields with their version; never the `alg` encrypt answered.
 */
function sealedBody(ttag: string, sealed: Sealed | string, aad: Data | undefined, context: EncryptionContext | undefined) {
  return { ttag, ...ciphertextOf(sealed), ...optionalAad(aad), ...optionalContext(context) };
}

/** The encryption context member of a body (docs/spec.md §4.5b), absent when none is given. */
function optionalContext(context: EncryptionContext | undefined): { context?: EncryptionContext } {
  return context === undefined ? {} : { context };
}

function ciphertextOf(sealed: Sealed | string) {
  if (typeof sealed === 'string') return { sealed };
  if (sealed.sealed !== undefined) return { sealed: sealed.sealed };
  return { ciphertext: sealed.ciphertext, iv: sealed.iv, authTag: sealed.authTag, ...optionalVersion(sealed.version) };
}

/**
 * A batch item as the strict decrypt and rewrap schemas take it: one form of its ciphertext (the sealed
 * text when it has one), an encrypt answer's `alg` and `ok` dropped.
 */
function oneForm(item: Sealed & { ok?: unknown }): object {
  const { alg: _alg, ok: _ok, ciphertext, iv, authTag, version, sealed, ...rest } = item;
  return { ...rest, ...ciphertextOf({ ciphertext, iv, authTag, version, sealed } as Sealed) };
}

const BATCH_PATHS = {
  encrypt: '/api/crypto/encrypt',
  decrypt: '/api/crypto/decrypt',
  rewrap: '/api/crypto/rewrap',
  mac: '/api/crypto/mac',
  verify: '/api/crypto/mac/verify',
  sign: '/api/crypto/sign',
  'sign-verify': '/api/crypto/sign/verify',
} as const;

/** A fresh client key from the option's maker (docs/spec.md §3.4 item 3), else a fresh P-256 key (§3.1). */
function newClientKey(options: WrapOption): Promise<ClientKey> {
  // A wrap of the other kind lacks the fields its opener reads, and is refused there (ExportUnwrapError).
  return options.clientKey?.() ?? ExportKey.generate();
}

/** A wrapped data key opened with its client key, checked against the length the answer names. */
async function dataKeyOf(clientKey: ClientKey, wrapped: ClientWrapped, keyLen: number): Promise<Bytes> {
  const key = await clientKey.unwrapDataKey(wrapped);
  if (key.length !== keyLen) throw new TypeError(`the data key opened to ${key.length} bytes, keyLen says ${keyLen}`);
  return key;
}
