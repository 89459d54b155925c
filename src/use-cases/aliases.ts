import { NotSavedError } from '../domain/errors/index.js';
import type { KeyServer, KeyServerConnection } from '../ports/key-server.port.js';
import type { AliasView } from '../wire/alias.js';
import { verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/**
 * Aliases (docs/spec.md §4.23 item 3): setting and deleting one are verified writes (docs/spec.md §4.1
 * item 3), read back through the alias list (the one read that names an alias), in the same connection.
 */
export class AliasUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  /** Makes `alias` name the key `ttag`; the read-back must show it naming that key. */
  put(caller: Caller, alias: string, ttag: string): Promise<AliasView> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const written = await connection.call('putAlias', { alias, ttag });
      const read = await readAlias(connection, alias);
      return verifyWrite(`alias ${alias}`, written.ttag, (view: AliasView) => view.ttag, read);
    });
  }

  /** Removes the alias; it must be gone on read-back. Answers the key it named (for the record). */
  remove(caller: Caller, alias: string): Promise<{ ttag: string }> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const removed = await connection.call('deleteAlias', { alias });
      if ((await readAlias(connection, alias)) !== undefined) throw new NotSavedError(`alias ${alias}: still there when read back`);
      return removed;
    });
  }
}

/** The alias as the list shows it: the first name from `alias` on is the alias itself when it exists. */
async function readAlias(connection: KeyServerConnection, alias: string): Promise<AliasView | undefined> {
  const page = await connection.call('listAliases', { prefix: alias, limit: 1 });
  return page.items.find((item) => item.alias === alias);
}
