import { BadRequestError, NotFoundError } from '../model/key-server-errors.js';
import type { ListResult } from '../../wire/list-result.js';
import type { PrincipalView } from '../../wire/principal.js';
import type { EngineContext } from './engine-context.js';
import { endBrokenDelegations } from './engine-delegation.js';
import type { PrincipalRow } from './engine-model.js';
import { principalViews } from './engine-views.js';

/**
 * Group membership (docs/spec.md §4.9). A group is a principal of kind `group`; its
 * members are users or services. A member holds its groups' roles and their ACL entries.
 */
export class GroupOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  members(token: string, group: string): ListResult<PrincipalView> {
    this.#ctx.auth.authorizeOperation(token, 'groups.read');
    const row = this.#group(group);
    return { items: principalViews(this.#ctx.store, this.#ctx.store.memberIdsOf(row.principalId)), complete: true };
  }

  /** Adds a member; adding one already there changes nothing. */
  addMember(token: string, group: string, member: string): void {
    this.#ctx.auth.authorizeOperation(token, 'groups.write');
    const row = this.#group(group);
    const memberRow = this.#ctx.auth.principalOrThrow(member);
    if (memberRow.kind === 'group') throw new BadRequestError(`member: ${member} is a group; members are users or services`);
    this.#ctx.store.putMembership(row.principalId, memberRow.principalId);
    endBrokenDelegations(this.#ctx.store);
  }

  /** Removes a member; removing one that is not there changes nothing. */
  removeMember(token: string, group: string, member: string): void {
    this.#ctx.auth.authorizeOperation(token, 'groups.write');
    const row = this.#group(group);
    this.#ctx.store.deleteMembership(row.principalId, this.#ctx.auth.principalOrThrow(member).principalId);
    endBrokenDelegations(this.#ctx.store);
  }

  #group(name: string): PrincipalRow {
    const row = this.#ctx.store.principalByName(name);
    if (row?.kind !== 'group') throw new NotFoundError(`no such group: ${name}`);
    return row;
  }
}
