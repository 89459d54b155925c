import { EXPORT_ALGO, type KeyView, type NewKey } from '../wire/key-view.js';
import type { WrappedKey } from '../domain/keywrap/keywrap.js';
import { keyLengthForNid } from '../domain/keywrap/key-length.js';
import type { KeyLength } from '../wire/key-length.js';
import { decodeClientPublicKey } from '../domain/keywrap/parse-client-public-key.js';
import { prepareWrap } from '../domain/keywrap/wrap-key.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { Random } from '../ports/random.port.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { NotSavedError } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

export interface KeyUseCasesDeps {
  readonly keyServer: KeyServer;
  readonly random: Random;
}

/** Seed 000 export response. */
export interface ExportedKey {
  readonly wrapped: WrappedKey;
  readonly algo: typeof EXPORT_ALGO;
  readonly keyLen: KeyLength;
}

/** Key generation, lifecycle and wrapped export (seed 000 rules 2 and 3, api-surface.md 13-16). */
export class KeyUseCases {
  readonly #deps: KeyUseCasesDeps;

  constructor(deps: KeyUseCasesDeps) {
    this.#deps = deps;
  }

  /** Generates a key owned by the caller (the seven-operation generate). */
  generate(caller: Caller, options: { keyLen: KeyLength }): Promise<{ ttag: string }> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const { ttag } = await connection.generateKey(options);
      return { ttag };
    });
  }

  /** Creates a key and answers its view (operation 13). */
  create(caller: Caller, options: NewKey): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      const { ttag } = await connection.generateKey(options);
      return connection.readKey(ttag);
    });
  }

  read(caller: Caller, ttag: string): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, (connection) => connection.readKey(ttag));
  }

  /** Expires the key; the read-back must show it expired (operation 16, W). */
  expire(caller: Caller, ttag: string): Promise<KeyView> {
    return withConnection(this.#deps.keyServer, caller, async (connection) => {
      await connection.expireKey(ttag);
      const view = await connection.readKey(ttag);
      if (view.state !== 'expired') throw new NotSavedError('the key is still active when read back');
      return view;
    });
  }

  /**
   * Exports the key wrapped to the client's ephemeral P-256 key. The client key's form is checked
   * before the key server is reached; the connection is opened, and the wrap prepared (its ECDH step
   * refuses a point off the curve), while `recorded` (the audit record's pending write) runs. The key
   * material is asked for only once the record has landed and the wrap is ready (fail closed: a refused
   * record or a bad point reads nothing). The raw key is zeroed once wrapped.
   */
  async export(caller: Caller, ttag: string, clientPubKey: string, recorded: Promise<void> = Promise.resolve()): Promise<ExportedKey> {
    let point: Buffer;
    try {
      point = decodeClientPublicKey(clientPubKey);
    } catch (error) {
      await recorded; // the record settles first: an audit refusal wins, and `finish` never races `begin`
      throw error;
    }
    const connecting = this.#deps.keyServer.connect(caller.session.token);
    const abandon = () =>
      connecting.then(
        (connection) => connection.close(),
        () => undefined,
      );
    // The key agreement runs while the connection is made: one turn of the event loop first lets a
    // remote key server's connection send its first flight, so the two overlap.
    await nextTurn();
    let wrap: ReturnType<typeof prepareWrap>;
    try {
      wrap = prepareWrap(point, this.#deps.random);
    } catch (error) {
      abandon();
      await recorded;
      throw error;
    }
    try {
      await recorded;
    } catch (error) {
      wrap.dispose();
      abandon();
      throw error;
    }
    try {
      const connection = await connecting;
      let blob: Awaited<ReturnType<typeof connection.exportKey>>;
      try {
        blob = await connection.exportKey(ttag);
      } finally {
        await connection.close();
      }
      try {
        const keyLen = keyLengthForNid(blob.nid);
        return { wrapped: wrap.seal(blob.key), algo: EXPORT_ALGO, keyLen };
      } finally {
        blob.key.fill(0);
      }
    } finally {
      wrap.dispose();
    }
  }
}
