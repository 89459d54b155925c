import { GROUPS_LIMIT_MAX, type ListResult } from '../../wire/list-result.js';
import type { PrincipalView } from '../../wire/principal.js';
import { BadRequestError, NotFoundError } from '../model/key-server-errors.js';
import type { EngineContext } from './engine-context.js';
import { endBrokenDelegations } from './engine-delegation.js';
import type { PrincipalRow } from './engine-model.js';
import { principalView, principalViews } from './engine-views.js';
import { refuseLosingLastAdmin } from './last-admin.js';
import { pageOf } from './list-cursor.js';

/**
 * Group membership (docs/spec.md §4.9). A group is a principal of kind `group`; its
 * members are users or services. A member holds its groups' roles and their ACL entries.
 */
export class GroupOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * A page of the groups by name (docs/spec.md §4.9 item 1): one keyset read of the principals of kind
   * `group` after the cursor's name (the stores' index on kind and name), `limit` 1..GROUPS_LIMIT_MAX.
   */
  async list(token: string, query: { readonly limit: number; readonly cursor?: string | undefined }): Promise<ListResult<PrincipalView>> {
    await this.#ctx.auth.authorizeOperation(token, 'groups.read');
    const store = this.#ctx.store;
    const page = await pageOf(
      query,
      'groups',
      (after, count) => store.principalsAfter(after, count, 'group'),
      (row) => row.name,
      GROUPS_LIMIT_MAX,
    );
    return { ...page, items: page.items.map(principalView) };
  }

  async members(token: string, group: string): Promise<ListResult<PrincipalView>> {
    await this.#ctx.auth.authorizeOperation(token, 'groups.read');
    const row = await this.#group(group);
    return { items: await principalViews(this.#ctx.store, await this.#ctx.store.memberIdsOf(row.principalId)), complete: true };
  }

  /** Adds a member; adding one already there changes nothing. */
  async addMember(token: string, group: string, member: string): Promise<void> {
    await this.#ctx.auth.authorizeOperation(token, 'groups.write');
    const row = await this.#group(group);
    const memberRow = await this.#ctx.auth.principalOrThrow(member);
    if (memberRow.kind === 'group') throw new BadRequestError(`member: ${member} is a group; members are users or services`);
    await this.#ctx.store.putMembership(row.principalId, memberRow.principalId);
    await endBrokenDelegations(this.#ctx.store);
  }

  /** Removes a member; removing one that is not there changes nothing; not the last administrator's (last-admin.ts). */
  async removeMember(token: string, group: string, member: string): Promise<void> {
    await this.#ctx.auth.authorizeOperation(token, 'groups.write');
    const row = await this.#group(group);
    const memberId = (await this.#ctx.auth.principalOrThrow(member)).principalId;
    await refuseLosingLastAdmin(this.#ctx.store, { kind: 'leave', groupId: row.principalId, memberId });
    await this.#ctx.store.deleteMembership(row.principalId, memberId);
    await endBrokenDelegations(this.#ctx.store);
  }

  async #group(name: string): Promise<PrincipalRow> {
    const row = await this.#ctx.store.principalByName(name);
    if (row?.kind !== 'group') throw new NotFoundError(`no such group: ${name}`);
    return row;
  }
}
