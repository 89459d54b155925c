import { NotSavedError, NotVerifiedError } from '../domain/errors/index.js';
import type { KeyServer, KeyServerConnection } from '../ports/key-server.port.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** Group membership (docs/spec.md §4.9); changes are verified on the member list. */
export class GroupUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  add(caller: Caller, group: string, member: string): Promise<void> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.call('addGroupMember', { group, member });
      if (!(await isMember(connection, group, member))) throw new NotSavedError(`${member} is not a member of ${group} on read-back`);
    });
  }

  remove(caller: Caller, group: string, member: string): Promise<void> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.call('removeGroupMember', { group, member });
      if (await isMember(connection, group, member)) throw new NotSavedError(`${member} is still a member of ${group} on read-back`);
    });
  }
}

/** Membership as read back; a member list that was not read whole cannot confirm an absence. */
async function isMember(connection: KeyServerConnection, group: string, member: string): Promise<boolean> {
  const members = await connection.call('groupMembers', { group });
  if (members.items.some((item) => item.name === member)) return true;
  if (!members.complete) throw new NotVerifiedError(`the members of ${group} could not be read back whole`);
  return false;
}
