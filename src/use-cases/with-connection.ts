import type { KeyServer, KeyServerConnection } from '../ports/key-server.port.js';
import type { Caller } from './session-context.js';

/**
 * docs/spec.md §1.1: each authenticated request opens a fresh connection to the key server with the stored
 * token, runs the operation and closes the connection, whatever the outcome.
 */
export async function withConnection<T>(
  keyServer: KeyServer,
  caller: Caller,
  operation: (connection: KeyServerConnection) => Promise<T>,
): Promise<T> {
  const connection = await keyServer.connect(caller.session.token);
  try {
    return await operation(connection);
  } finally {
    await connection.close();
  }
}
