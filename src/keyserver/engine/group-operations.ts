import { BadRequestError, NotFoundError } from '../../domain/errors/index.js';
import type { ListResult } from '../../domain/list/list-result.js';
import type { PrincipalView } from '../../domain/principal/principal.js';
import type { KeyServerEngine } from './engine.js';
import type { PrincipalRow } from './engine-model.js';
import { principalViews } from './engine-views.js';

/**
 * Group membership (api-surface.md operations 29-31). A group is a principal of kind `group`; its
 * members are users or services. A member holds its groups' roles and their ACL entries.
 */
export class GroupOperations {
  readonly #engine: KeyServerEngine;

  constructor(engine: KeyServerEngine) {
    this.#engine = engine;
  }

  members(token: string, group: string): ListResult<PrincipalView> {
    this.#engine.authorizeOperation(token, 'groups.read');
    const row = this.#group(group);
    return { items: principalViews(this.#engine.store, this.#engine.store.memberIdsOf(row.principalId)), complete: true };
  }

  /** Adds a member; adding one already there changes nothing. */
  addMember(token: string, group: string, member: string): void {
    this.#engine.authorizeOperation(token, 'groups.write');
    const row = this.#group(group);
    const memberRow = this.#engine.principalOrThrow(member);
    if (memberRow.kind === 'group') throw new BadRequestError(`member: ${member} is a group; members are users or services`);
    this.#engine.store.putMembership(row.principalId, memberRow.principalId);
  }

  /** Removes a member; removing one that is not there changes nothing. */
  removeMember(token: string, group: string, member: string): void {
    this.#engine.authorizeOperation(token, 'groups.write');
    const row = this.#group(group);
    this.#engine.store.deleteMembership(row.principalId, this.#engine.principalOrThrow(member).principalId);
  }

  #group(name: string): PrincipalRow {
    const row = this.#engine.store.principalByName(name);
    if (row?.kind !== 'group') throw new NotFoundError(`no such group: ${name}`);
    return row;
  }
}
