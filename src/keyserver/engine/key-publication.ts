import type { KeyView } from '../../wire/key-view.js';
import { NotFoundError } from '../model/key-server-errors.js';
import type { SigningJwk } from '../model/signing-keys.js';
import type { EngineContext } from './engine-context.js';
import type { KeyRow } from './engine-model.js';
import { keyStateOf, keyView, requireNotDeleted } from './engine-views.js';
import { requireSigningKey } from './key-type-fit.js';
import { keyJwks } from './signing-jwks.js';

/**
 * A signing key's published JWKS (docs/spec.md §4.25 item 7): its owner publishes or withdraws it
 * (`keys.publish`), and any gateway asks for it as itself, for no user, to serve it without a session.
 */
export class KeyPublication {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * Publishes the key's JWKS, or withdraws it; owner only, in a `manage` scope. An aes key is
   * KEY_TYPE_MISMATCH, a tombstone KEY_DELETED. Setting what is set changes nothing.
   */
  async setPublished(token: string, ttag: string, published: boolean): Promise<KeyView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.publish');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, published ? 'publish' : 'withdraw');
    ctx.auth.requireScope(caller, ttag, 'manage');
    requireNotDeleted(key);
    requireSigningKey(key);
    if (key.signing.published === published) return await keyView(key, ctx.store, ctx.now());
    const changed: KeyRow = { ...key, signing: { ...key.signing, published } };
    await ctx.store.putKey(changed);
    return await keyView(changed, ctx.store, ctx.now());
  }

  /**
   * The JWKS of a published, active signing key by ttag or `alias/{name}` (the gateway's own call):
   * every other key, and every name of none, is NOT_FOUND alike, so the answer tells an unauthenticated
   * caller nothing about keys it may not see.
   */
  async publishedJwks(reference: string): Promise<{ keys: SigningJwk[] }> {
    const key = await this.#ctx.auth.keyOrThrow(reference).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (key?.signing === undefined || !key.signing.published || keyStateOf(key, this.#ctx.now()) !== 'active')
      throw new NotFoundError('no published key set');
    return { keys: keyJwks({ ...key, signing: key.signing }) };
  }
}
