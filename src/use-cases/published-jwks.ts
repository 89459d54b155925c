import { createHash } from 'node:crypto';
import { isKeygateError } from '../domain/errors/index.js';
import type { Clock } from '../ports/clock.port.js';
import type { KeyServer } from '../ports/key-server.port.js';

/** How old a copy of a published JWKS a gateway may answer (docs/spec.md §4.25 item 7). */
export const PUBLISHED_JWKS_MAX_AGE_MS = 1000;
/** The most key sets a gateway keeps copies of; past it the oldest copy goes first. */
const CACHED_SETS = 1000;

/** A published JWKS as served: its exact bytes and their strong ETag; `undefined` when none is published. */
export interface PublishedJwksAnswer {
  readonly body: Buffer;
  readonly etag: string;
}

export interface PublishedJwksDeps {
  readonly keyServer: KeyServer;
  readonly clock: Clock;
}

interface Copy {
  readonly at: number;
  readonly answer: PublishedJwksAnswer | undefined;
}

/**
 * The JWKS of a published signing key (docs/spec.md §4.25 item 7), asked of the key server as the
 * gateway itself (`KeyServer.connectAsGateway`: no session, no user) and kept at most
 * PUBLISHED_JWKS_MAX_AGE_MS of the gateway's clock, so a relying party's fetches cost the key server one
 * call a second per key set. A key set that is not published is remembered as such for as long.
 */
export class PublishedJwks {
  readonly #deps: PublishedJwksDeps;
  readonly #copies = new Map<string, Copy>();

  constructor(deps: PublishedJwksDeps) {
    this.#deps = deps;
  }

  /**
   * A copy young enough to answer from without asking the key server (the gateway's fast path): the key
   * set, or `undefined` when there is no fresh copy of a published one (the full path then asks).
   */
  fresh(reference: string): PublishedJwksAnswer | undefined {
    const now = this.#deps.clock.now();
    const copy = this.#copies.get(reference);
    return copy !== undefined && now - copy.at < PUBLISHED_JWKS_MAX_AGE_MS && copy.at <= now ? copy.answer : undefined;
  }

  /** The key set of `reference` (a ttag or `alias/{name}`), or undefined when none is published there. */
  async read(reference: string): Promise<PublishedJwksAnswer | undefined> {
    const now = this.#deps.clock.now();
    const copy = this.#copies.get(reference);
    if (copy !== undefined && now - copy.at < PUBLISHED_JWKS_MAX_AGE_MS && copy.at <= now) return copy.answer;
    const answer = await this.#fetch(reference);
    this.#copies.delete(reference);
    if (this.#copies.size >= CACHED_SETS) this.#copies.delete(this.#copies.keys().next().value!);
    this.#copies.set(reference, { at: now, answer });
    return answer;
  }

  async #fetch(reference: string): Promise<PublishedJwksAnswer | undefined> {
    const connection = await this.#deps.keyServer.connectAsGateway();
    try {
      const { keys } = await connection.call('publishedJwks', { ttag: reference });
      const body = Buffer.from(JSON.stringify({ keys }));
      return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
    } catch (error) {
      if (isKeygateError(error) && error.code === 'NOT_FOUND') return undefined;
      throw error;
    } finally {
      await connection.close();
    }
  }
}
