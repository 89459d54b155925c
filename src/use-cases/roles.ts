import type { KeyServer } from '../ports/key-server.port.js';
import type { RoleView } from '../wire/role.js';
import { readBack, verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** Roles (docs/spec.md §4.10). */
export class RoleUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  /** Defines or redefines the role; the read-back must carry exactly the operations asked. */
  put(caller: Caller, name: string, operations: readonly string[]): Promise<RoleView> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const before = await readBack(() => connection.call('readRole', { name }));
      await connection.call('putRole', { name, operations: [...operations] });
      const after = await readBack(() => connection.call('readRole', { name }));
      return verifyWrite(`role ${name}`, [...new Set(operations)], (role: RoleView) => role.operations, after, before);
    });
  }
}
