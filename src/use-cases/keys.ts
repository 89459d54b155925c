import { KeygateError, NotSavedError } from '../domain/errors/index.js';
import type { ClientWrappedKey, WrappedKey } from '../domain/keywrap/keywrap.js';
import { decodeAnyClientPublicKey, decodeClientPublicKey } from '../domain/keywrap/parse-client-public-key.js';
import { prepareExportWrap, prepareWrap } from '../domain/keywrap/wrap-key.js';
import type { CallResult, KeyServer } from '../ports/key-server.port.js';
import type { Random } from '../ports/random.port.js';
import type { IdempotencyClaim } from '../wire/crypto-messages.js';
import { type KeyLength, keyLengthForNid } from '../wire/key-length.js';
import type { SigningKeyType } from '../wire/key-type.js';
import { EXPORT_ALGO, type KeyView, type NewKey } from '../wire/key-view.js';
import { readBack, verifyWrite } from './read-back.js';
import type { ReleaseGate } from './release-gate.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

export interface KeyUseCasesDeps {
  readonly keyServer: KeyServer;
  readonly random: Random;
}

/**
 * The seven-operation export response (docs/spec.md §3): wrapped to P-256 there; on /api `W` is a
 * wrap of either kind (docs/spec.md §3.4).
 */
export interface ExportedKey<W extends ClientWrappedKey = WrappedKey> {
  readonly wrapped: W;
  readonly algo: typeof EXPORT_ALGO;
  readonly keyLen: KeyLength;
}

/** The /api export response of an aes key: the seven-operation fields and the version exported (docs/spec.md §4.22). */
export interface ExportedAesVersion<W extends ClientWrappedKey = ClientWrappedKey> extends ExportedKey<W> {
  readonly version: number;
  /** The ttag the request's alias resolved to (docs/spec.md §4.23 item 3), for the record; never answered. */
  readonly resolved?: string;
}

/** The /api export response of an exportable signing key: its version's PKCS#8, wrapped (docs/spec.md §4.25 item 1). */
export interface ExportedSigningVersion<W extends ClientWrappedKey = ClientWrappedKey> {
  readonly wrapped: W;
  readonly type: SigningKeyType;
  readonly format: 'pkcs8';
  readonly version: number;
  readonly resolved?: string;
}

export type ExportedVersion<W extends ClientWrappedKey = ClientWrappedKey> = ExportedAesVersion<W> | ExportedSigningVersion<W>;

/** A wrap with everything but the key done (docs/spec.md §3.2, §3.4): `seal` finishes it, `dispose` drops it unused. */
interface ExportWrap<W extends ClientWrappedKey> {
  seal(key: Uint8Array): W | Promise<W>;
  dispose(): void;
}

/** Key generation, lifecycle and wrapped export (docs/spec.md §2.3 items 2 and 3, §4.6). */
export class KeyUseCases {
  readonly #deps: KeyUseCasesDeps;

  constructor(deps: KeyUseCasesDeps) {
    this.#deps = deps;
  }

  /**
   * Generates a key owned by the caller (the seven-operation generate). `made` hears the ttag as soon
   * as the key server answers, before anything else can fail: the caller names it in the audit record
   * (and arranges its undo should that record not be stored).
   */
  generate(caller: Caller, options: { keyLen: KeyLength }, made: (ttag: string) => void = () => undefined): Promise<{ ttag: string }> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const { ttag } = await connection.call('generateKey', { keyLen: options.keyLen });
      made(ttag);
      return { ttag };
    });
  }

  /**
   * Creates a key and answers its view (operation 13); `made` as for `generate`, told too whether the
   * key server replayed an earlier request's key (docs/spec.md §4.22 item 7): a replay made nothing,
   * and there is nothing of this request's to undo.
   */
  create(
    caller: Caller,
    options: NewKey,
    made: (ttag: string, replayed: boolean) => void = () => undefined,
    idempotency?: IdempotencyClaim,
  ): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const { ttag, replayed } = await connection.call('generateKey', { ...options, idempotency: claim(idempotency) });
      made(ttag, replayed);
      return connection.call('readKey', { ttag });
    });
  }

  /** Expires the key; the read-back must show it expired (operation 16, W). */
  expire(caller: Caller, ttag: string): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      await connection.call('expireKey', { ttag });
      const view = await connection.call('readKey', { ttag });
      if (view.state !== 'expired') throw new NotSavedError('the key is still active when read back');
      return view;
    });
  }

  /**
   * Publishes a signing key's JWKS, or withdraws it (docs/spec.md §4.25 item 7); the read-back must show
   * `published` as asked (docs/spec.md §4.1 item 3).
   */
  setPublished(caller: Caller, ttag: string, published: boolean): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const written = await connection.call('setPublished', { ttag, published });
      const view = await connection.call('readKey', { ttag: written.ttag });
      if (view.published !== published)
        throw new NotSavedError(`the key reads published ${view.published} when read back, not ${published}`);
      return view;
    });
  }

  /**
   * Disables the key, or enables it again (docs/spec.md §4.6); the read-back must show the state asked
   * for (docs/spec.md §4.1 item 3), as expire's does.
   */
  setState(caller: Caller, ttag: string, state: 'active' | 'disabled'): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      await connection.call(state === 'disabled' ? 'disableKey' : 'enableKey', { ttag });
      const view = await connection.call('readKey', { ttag });
      if (view.state !== state) throw new NotSavedError(`the key reads ${view.state} when read back, not ${state}`);
      return view;
    });
  }

  /**
   * Sets one tag of the key (docs/spec.md §4.23 item 2); the read-back must show it with the value asked
   * for (docs/spec.md §4.1 item 3).
   */
  tag(caller: Caller, ttag: string, name: string, value: string): Promise<{ name: string; value: string; resolved?: string }> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const set = await connection.call('putKeyTag', { ttag, name, value });
      // Read back the key the write landed on: an alias may name another key by now (docs/spec.md §4.23 item 3).
      const tags = await readBack(() => connection.call('keyTags', { ttag: set.resolved ?? ttag }));
      // A tag missing on read-back was not saved; one with another value is not what was asked.
      verifyWrite(`tag ${name}`, value, (read: Readonly<Record<string, string>>) => read[name], tags, {});
      return set;
    });
  }

  /** Deletes one tag of the key (docs/spec.md §4.23 item 2); the read-back must show it gone. */
  untag(caller: Caller, ttag: string, name: string): Promise<{ resolved?: string }> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const deleted = await connection.call('deleteKeyTag', { ttag, name });
      const tags = await readBack(() => connection.call('keyTags', { ttag: deleted.resolved ?? ttag }));
      if (tags !== undefined && Object.hasOwn(tags, name)) throw new NotSavedError(`tag ${name}: still on the key when read back`);
      return deleted;
    });
  }

  /**
   * Schedules the key's deletion (docs/spec.md §4.23 item 5; the key server checks `pendingDays`
   * against its bounds); the read-back must show it pending deletion.
   */
  scheduleDeletion(caller: Caller, ttag: string, pendingDays?: number): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const written = await connection.call('scheduleKeyDeletion', { ttag, ...(pendingDays === undefined ? {} : { pendingDays }) });
      const view = await connection.call('readKey', { ttag: written.ttag });
      if (view.state !== 'pending-deletion') throw new NotSavedError(`the key reads ${view.state} when read back, not pending-deletion`);
      return view;
    });
  }

  /** Cancels the key's scheduled deletion; the read-back must no longer show it pending (disabled, or expired). */
  cancelDeletion(caller: Caller, ttag: string): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const written = await connection.call('cancelKeyDeletion', { ttag });
      const view = await connection.call('readKey', { ttag: written.ttag });
      if (view.state === 'pending-deletion') throw new NotSavedError('the key is still pending deletion when read back');
      return view;
    });
  }

  /** Raises the key's minimum version (owner); the answer must show at least the minimum asked for. */
  setMinVersion(caller: Caller, ttag: string, minVersion: number): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const view = await connection.call('setMinVersion', { ttag, minVersion });
      if (view.minVersion < minVersion) throw new NotSavedError(`the key's minVersion reads ${view.minVersion}, not ${minVersion}`);
      return view;
    });
  }

  /**
   * An /api export (docs/spec.md §3, §4.22): an aes key's raw bytes, or an exportable signing key's
   * PKCS#8 (docs/spec.md §4.25 item 1), wrapped the same way, to a P-256 point or an X-Wing public
   * key (docs/spec.md §3.4).
   */
  async export(
    caller: Caller,
    ttag: string,
    clientPubKey: string,
    version: number | undefined,
    recorded: ReleaseGate,
  ): Promise<ExportedVersion> {
    const wrap = await prepareExportWrap(decodeAnyClientPublicKey(clientPubKey), this.#deps.random);
    return this.#export<ClientWrappedKey>(caller, ttag, wrap, version, recorded, false);
  }

  /**
   * The seven-operation export (docs/spec.md §2.3 item 3): the newest version of an aes key; the key
   * server refuses a signing key (KEY_TYPE_MISMATCH, 403 there) before reading it (docs/spec.md §4.25).
   */
  async exportAes(caller: Caller, ttag: string, clientPubKey: string, recorded: ReleaseGate): Promise<ExportedKey> {
    // P-256 only: the root surface takes no X-Wing key (docs/spec.md §3.4).
    const wrap = prepareWrap(decodeClientPublicKey(clientPubKey), this.#deps.random);
    const exported = await this.#export(caller, ttag, wrap, undefined, recorded, true);
    if ('type' in exported) throw new KeygateError('KEY_SERVER_FAILED', 'the key server answered a signing key to an aes-only export');
    return exported;
  }

  /**
   * An export (docs/spec.md §3): with the wrap prepared (the client key validated), the key-server
   * connection is opened; then, once `recorded` lets it through (the pending audit record stored,
   * docs/spec.md §9.2), the key is read, answered wrapped to the client's key, and the raw key zeroed.
   * When the gate refuses, nothing is read: the wrap is disposed of and the connection closed.
   */
  async #export<W extends ClientWrappedKey>(
    caller: Caller,
    ttag: string,
    wrap: ExportWrap<W>,
    version: number | undefined,
    recorded: ReleaseGate,
    aesOnly: boolean,
  ): Promise<ExportedVersion<W>> {
    try {
      const connection = await this.#deps.keyServer.connect(caller.session.token);
      try {
        await recorded();
      } catch (error) {
        connection.close().catch(() => undefined);
        throw error;
      }
      let blob: CallResult<'exportKey'>;
      try {
        blob = await connection.call('exportKey', { ttag, version, ...(aesOnly ? { aesOnly } : {}) });
      } finally {
        await connection.close();
      }
      try {
        const resolved = blob.resolved === undefined ? {} : { resolved: blob.resolved };
        if (blob.type !== undefined) {
          return { wrapped: await wrap.seal(blob.key), type: blob.type, format: 'pkcs8', version: blob.version, ...resolved };
        }
        const keyLen = keyLengthForNid(blob.nid, KeygateError);
        return { wrapped: await wrap.seal(blob.key), algo: EXPORT_ALGO, keyLen, version: blob.version, ...resolved };
      } finally {
        blob.key.fill(0);
      }
    } finally {
      wrap.dispose();
    }
  }
}

/** The claim's two members only (a caller's object may carry more). */
function claim(idempotency: IdempotencyClaim | undefined) {
  return idempotency === undefined ? undefined : { key: idempotency.key, fingerprint: idempotency.fingerprint };
}
