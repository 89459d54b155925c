import { KEY_TAGS_MAX, tagNameFault, tagValueFault } from '../../wire/key-tags.js';
import type { KeyListFilters, KeySummary } from '../../wire/key-view.js';
import { KEY_LIST_TAG_FILTERS_MAX, KEYS_LIMIT_MAX, type ListResult } from '../../wire/list-result.js';
import { BadRequestError, KeyDeletedError, KeyServerError } from '../model/key-server-errors.js';
import type { EngineContext, TokenContext } from './engine-context.js';
import type { KeyPageQuery, KeyRow } from './engine-model.js';
import { principalOperations } from './engine-roles.js';
import { keySummary } from './engine-views.js';
import { resolvedOf } from './key-use.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';

/** The key list's query as the protocol carries it (src/wire/keyserver-values.ts `keyListQuery`). */
export interface KeyListQuery extends KeyListFilters {
  readonly limit: number;
  readonly cursor?: string | undefined;
}

const LABEL_PREFIX_MAX = 256;

/** The key list and tags (docs/spec.md §4.23 items 1 and 2). */
export class KeyInventory {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * A page of the keys the caller may see (docs/spec.md §4.23 item 1): `keys.list` shows the keys it
   * owns and those whose ACL names it or one of its enabled groups; `keys.list.all` every key; a scoped
   * token only its scope's keys; a delegated token's principal is the one it acts for. One read of the
   * store (`keyPage`) for the page, `limit` + 1 keys to know whether another page follows.
   */
  async list(token: string, query: KeyListQuery): Promise<ListResult<KeySummary>> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.list');
    const page = await this.#pageQuery(caller, query);
    if (page === undefined) return { items: [], complete: true };
    const rows = await ctx.store.keyPage({ ...page, limit: query.limit + 1 });
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    const more = rows.length > query.limit && last !== undefined;
    const summaries: KeySummary[] = [];
    for (const row of items) summaries.push(await keySummary(row, ctx.store, page.now));
    return { items: summaries, complete: true, ...(more ? { next: encodeCursor('keys', `${last.createdAt}:${last.ttag}`) } : {}) };
  }

  /** The store's query for the caller's page; undefined when nothing can match (an owner no principal has). */
  async #pageQuery(caller: TokenContext, query: KeyListQuery): Promise<Omit<KeyPageQuery, 'limit'> | undefined> {
    const ctx = this.#ctx;
    checkedFilters(query);
    const scope = caller.token.scope;
    const everyKey = scope === undefined && (await principalOperations(ctx.store, caller.principal)).has('keys.list.all');
    const requester = await ctx.auth.requesterOf(caller.principal);
    const owner = query.owner === undefined ? undefined : await ctx.store.principalByName(query.owner);
    if (query.owner !== undefined && owner === undefined) return undefined;
    return {
      ...(everyKey ? {} : { visibleTo: [requester.principalId, ...requester.groupIds] }),
      ...(scope === undefined ? {} : { ttags: Object.keys(scope) }),
      ...(owner === undefined ? {} : { owner: owner.principalId }),
      ...(query.q === undefined ? {} : { labelPrefix: query.q }),
      tags: (query.tag ?? []).map(tagFilter),
      ...(query.state === undefined ? {} : { state: query.state }),
      now: ctx.now(),
      ...(query.createdAfter === undefined ? {} : { createdAfter: query.createdAfter }),
      ...(query.createdBefore === undefined ? {} : { createdBefore: query.createdBefore }),
      ...(query.cursor === undefined ? {} : { after: cursorPosition(query.cursor) }),
    };
  }

  /**
   * Sets one tag (docs/spec.md §4.23 item 2): the owner or a holder of the right `tag`. A 51st tag is
   * CONFLICT with reason TAG_LIMIT; a deleted key's tags never change (KEY_DELETED).
   */
  async putTag(token: string, ttag: string, name: string, value: string): Promise<{ name: string; value: string; resolved?: string }> {
    const key = await this.#taggable(token, ttag, name);
    const fault = tagValueFault(value);
    if (fault !== undefined) throw new BadRequestError(`value: ${fault}`);
    if (!Object.hasOwn(key.tags, name) && Object.keys(key.tags).length >= KEY_TAGS_MAX) {
      throw new KeyServerError('CONFLICT', `the key carries ${KEY_TAGS_MAX} tags, the most a key may`, { reason: 'TAG_LIMIT' });
    }
    if (key.tags[name] !== value || !Object.hasOwn(key.tags, name)) await this.#ctx.store.putKeyTag(key.ttag, name, value);
    return { name, value, ...resolvedOf(ttag, key) };
  }

  /** Deletes one tag; one the key does not carry changes nothing (docs/spec.md §4.23 item 2). */
  async deleteTag(token: string, ttag: string, name: string): Promise<{ resolved?: string }> {
    const key = await this.#taggable(token, ttag, name);
    if (Object.hasOwn(key.tags, name)) await this.#ctx.store.deleteKeyTag(key.ttag, name);
    return resolvedOf(ttag, key);
  }

  /** The key's tags as stored, for a caller who may change them (a tag write's read-back). */
  async tags(token: string, ttag: string): Promise<Record<string, string>> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.tag');
    return { ...(await ctx.auth.authorizeKey(caller, ttag, 'tag')).tags };
  }

  /** The key whose tags the caller may change: role keys.tag, then the right tag (owner or granted), then its scope. */
  async #taggable(token: string, ttag: string, name: string): Promise<KeyRow> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.tag');
    const key = await ctx.auth.authorizeKey(caller, ttag, 'tag');
    const fault = tagNameFault(name);
    if (fault !== undefined) throw new BadRequestError(`name: ${fault}`);
    if (key.deletedAt !== undefined) throw new KeyDeletedError();
    return key;
  }
}

/** Each filter in its range (docs/spec.md §4.23 item 1), or BAD_REQUEST naming it. */
function checkedFilters(query: KeyListQuery): void {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > KEYS_LIMIT_MAX) {
    throw new BadRequestError(`limit: an integer from 1 to ${KEYS_LIMIT_MAX}`);
  }
  if (query.q !== undefined && (query.q.length < 1 || query.q.length > LABEL_PREFIX_MAX)) {
    throw new BadRequestError(`q: a label prefix of 1 to ${LABEL_PREFIX_MAX} characters`);
  }
  if ((query.tag?.length ?? 0) > KEY_LIST_TAG_FILTERS_MAX)
    throw new BadRequestError(`tag: at most ${KEY_LIST_TAG_FILTERS_MAX} tag filters`);
  for (const time of ['createdAfter', 'createdBefore'] as const) {
    const value = query[time];
    if (value !== undefined && !Number.isSafeInteger(value)) throw new BadRequestError(`${time}: an instant`);
  }
}

/** `name:value` (the tag with that value) or `name` (with any value). */
function tagFilter(filter: string): { name: string; value?: string } {
  const colon = filter.indexOf(':');
  const name = colon === -1 ? filter : filter.slice(0, colon);
  const nameFault = tagNameFault(name);
  if (nameFault !== undefined) throw new BadRequestError(`tag: a tag name is ${nameFault}`);
  if (colon === -1) return { name };
  const value = filter.slice(colon + 1);
  const valueFault = tagValueFault(value);
  if (valueFault !== undefined) throw new BadRequestError(`tag: a tag value is ${valueFault}`);
  return { name, value };
}

/** The last key of the page before, as a cursor of this list names it: `<createdAt ms>:<ttag>`. */
function cursorPosition(cursor: string): { createdAt: number; ttag: string } {
  const position = decodeCursor(cursor, 'keys');
  const colon = position.indexOf(':');
  const createdAt = Number(position.slice(0, colon));
  const ttag = position.slice(colon + 1);
  if (colon < 1 || !Number.isSafeInteger(createdAt) || ttag === '') throw new BadRequestError('cursor: not a cursor of this list');
  return { createdAt, ttag };
}
