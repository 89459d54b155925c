import type { z } from 'zod';
import { KeyServerFailedError } from '../../domain/errors/index.js';
import type { Secret } from '../../domain/secret/secret.js';
import { PATHS } from '../../keyserver/protocol/keyserver-protocol.js';
import { KEY_SERVER_OPERATIONS, type OperationArgs, type OperationName, type OperationResult } from '../../wire/keyserver-operations.js';
import { toWire } from '../../wire/keyserver-values.js';
import { OperationConnection } from './operation-connection.js';
import type { TlsChannel } from './tls-channel.js';

/**
 * One gateway request's connection to a daemon: each operation is one `POST /v1/op/<name>`, its
 * reply checked against the protocol's result schema. Bytes become base64 only for the wire: the
 * arguments are encoded on the way out, and the reply's binary values are decoded back into bytes by
 * the same schema that checks it.
 */
export class TlsConnection extends OperationConnection {
  /** Without a token: the gateway's own calls (`KeyServer.connectAsGateway`). */
  constructor(channel: TlsChannel, token: Secret | undefined) {
    super(
      <N extends OperationName>(name: N, args: OperationArgs<N>) => callOperation(channel, token, name, args),
      () => channel.close(),
    );
  }
}

async function callOperation<N extends OperationName>(
  channel: TlsChannel,
  token: Secret | undefined,
  name: N,
  args: OperationArgs<N>,
): Promise<OperationResult<N>> {
  const reply = await channel.call('POST', PATHS.operation(name), toWire(args), token);
  if (typeof reply !== 'object' || reply === null || !('result' in reply)) {
    throw new KeyServerFailedError(`key server reply to ${name} does not follow the protocol`);
  }
  return parseReply(KEY_SERVER_OPERATIONS[name].result, reply.result, name) as OperationResult<N>;
}

/** Style rule 8: a key-server reply is validated at the adapter; a mismatch is KEY_SERVER_FAILED. */
export function parseReply<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new KeyServerFailedError(`key server reply to ${what} does not follow the protocol`);
  return parsed.data;
}
