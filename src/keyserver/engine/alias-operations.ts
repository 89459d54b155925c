import { ALIAS_LIMIT, ALIASES_LIMIT_MAX, type AliasView, aliasOf, isAliasName } from '../../wire/alias.js';
import type { ListResult } from '../../wire/list-result.js';
import { BadRequestError, KeyDeletedError, KeyServerError, NotFoundError } from '../model/key-server-errors.js';
import type { EngineContext, TokenContext } from './engine-context.js';
import type { AliasQuery, AliasRow } from './engine-model.js';
import { principalOperations } from './engine-roles.js';
import { requesterOf } from './engine-views.js';
import { pageOf } from './list-cursor.js';

/**
 * Aliases (docs/spec.md §4.23 item 3): a name for one key, unique in the deployment, set and moved by
 * the owner of the key it names (and, for a move, of the key it named), listed for the keys the caller
 * would see listed. Resolution is not here: `EngineAuthority.keyOrThrow` resolves `alias/<name>` for
 * every operation that takes a key.
 */
export class AliasOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * Makes `alias` name the key `ttag` (a ttag, not an alias: BAD_REQUEST). The caller owns the key, and
   * the key the alias names already when it moves; a deleted key is KEY_DELETED; a key carrying
   * ALIAS_LIMIT aliases is CONFLICT `ALIAS_LIMIT`. Naming the key it names already changes nothing.
   */
  async put(token: string, alias: string, ttag: string): Promise<AliasView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authorizeOperation(token, 'aliases.write');
    checkedName(alias);
    if (aliasOf(ttag) !== undefined) throw new BadRequestError('ttag: a ttag, not an alias');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, 'set an alias');
    if (key.deletedAt !== undefined) throw new KeyDeletedError();
    const existing = await ctx.store.alias(alias);
    if (existing?.ttag === key.ttag) return aliasView(existing);
    if (existing !== undefined) await ctx.auth.ownedKey(caller.principal, existing.ttag, 'move an alias from its key');
    if ((await ctx.store.aliasCount(key.ttag)) >= ALIAS_LIMIT) {
      throw new KeyServerError('CONFLICT', `the key carries ${ALIAS_LIMIT} aliases already`, { reason: 'ALIAS_LIMIT' });
    }
    const now = ctx.now();
    const row: AliasRow = { name: alias, ttag: key.ttag, createdAt: existing?.createdAt ?? now, updatedAt: now };
    await ctx.store.putAlias(row);
    return aliasView(row);
  }

  /** Removes the alias: the owner of the key it names; an unknown alias is NOT_FOUND. Answers the key it named. */
  async remove(token: string, alias: string): Promise<{ ttag: string }> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authorizeOperation(token, 'aliases.write');
    const existing = isAliasName(alias) ? await ctx.store.alias(alias) : undefined;
    if (existing === undefined) throw new NotFoundError(`no such alias: ${alias}`);
    await ctx.auth.ownedKey(caller.principal, existing.ttag, 'delete an alias');
    await ctx.store.deleteAlias(alias);
    return { ttag: existing.ttag };
  }

  /**
   * A page of aliases by name (code-unit order), of the keys the caller would see listed: those it owns
   * or whose ACL names it or one of its groups; every key for a holder of `keys.list.all`; a scoped
   * token only its keys. `ttag` narrows to one key, `prefix` to names that begin with it.
   */
  async list(
    token: string,
    query: { ttag?: string | undefined; prefix?: string | undefined; limit: number; cursor?: string | undefined },
  ): Promise<ListResult<AliasView>> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'aliases.read');
    if (query.ttag !== undefined && aliasOf(query.ttag) !== undefined) throw new BadRequestError('ttag: a ttag, not an alias');
    const reach = await this.#reach(caller);
    const read = (after: string | undefined, limit: number) =>
      ctx.store.aliasesAfter({ after, limit, ttag: query.ttag, prefix: query.prefix, ...reach });
    const page = await pageOf(query, 'aliases', read, (row) => row.name, ALIASES_LIMIT_MAX);
    return { ...page, items: page.items.map(aliasView) };
  }

  /** Which keys' aliases the caller sees (docs/spec.md §4.23 item 1's visibility). */
  async #reach(caller: TokenContext): Promise<Pick<AliasQuery, 'reachedBy' | 'within'>> {
    const scope = caller.token.scope;
    const within = scope === undefined ? {} : { within: Object.keys(scope) };
    if ((await principalOperations(this.#ctx.store, caller.principal)).has('keys.list.all')) return within;
    const requester = await requesterOf(caller.principal, this.#ctx.store);
    return { ...within, reachedBy: [requester.principalId, ...requester.groupIds] };
  }
}

/** An alias name by its rule (src/wire/alias.ts), or BAD_REQUEST naming `alias`. */
function checkedName(alias: string): string {
  if (!isAliasName(alias)) throw new BadRequestError("alias: 1..128 ASCII letters, digits and '. _ -', beginning with a letter or a digit");
  return alias;
}

function aliasView(row: AliasRow): AliasView {
  return {
    alias: row.name,
    ttag: row.ttag,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
