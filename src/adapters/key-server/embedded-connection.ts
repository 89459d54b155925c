import { KeyServerFailedError } from '../../domain/errors/index.js';
import type { Secret } from '../../domain/secret/secret.js';
import type { KeyServerEngine } from '../../keyserver/engine/engine.js';
import { isKeyServerError } from '../../keyserver/model/key-server-errors.js';
import { runOperation } from '../../keyserver/protocol/protocol-operations.js';
import type { OperationArgs, OperationName } from '../../wire/keyserver-operations.js';
import { OperationConnection } from './operation-connection.js';
import { rebuildKeyServerError } from './wire-error.js';

/**
 * One connection of the embedded key server: every operation runs the engine function of the
 * protocol's table with the stored token, as the daemon runs it.
 */
export class EmbeddedConnection extends OperationConnection {
  constructor(engine: KeyServerEngine, token: Secret) {
    super(<N extends OperationName>(name: N, args: OperationArgs<N>) => guard(() => runOperation(engine, name, token.reveal(), args)));
  }
}

/**
 * Engine errors carry codes that travel (src/wire/error-codes.ts): each is rebuilt as the gateway's
 * own error exactly as a daemon answer is; anything else is a key-server failure.
 */
export async function guard<T>(operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isKeyServerError(error)) throw rebuildKeyServerError(error.code, error.detail, error.reason, error);
    throw new KeyServerFailedError('key server operation failed', error);
  }
}
