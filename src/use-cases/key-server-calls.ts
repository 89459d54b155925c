import type { CallArgs, CallResult, KeyServer } from '../ports/key-server.port.js';
import type { OperationName } from '../wire/keyserver-operations.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/**
 * One key-server operation for a route that adds no rule of its own (a read, a list, a write the key
 * server verifies itself): the caller's connection opened with its stored token, the operation run,
 * the connection closed whatever happens (docs/spec.md §1.1). What the operation takes and answers is
 * the protocol table's (src/wire/keyserver-operations.ts). Operations with rules of the gateway's
 * (read-backs, secrets, audit undo) have their own use cases.
 */
export class KeyServerCalls {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  call<N extends OperationName>(caller: Caller, name: N, args: CallArgs<N>): Promise<CallResult<N>> {
    return withConnection(this.#keyServer, caller, (connection) => connection.call(name, args));
  }
}
