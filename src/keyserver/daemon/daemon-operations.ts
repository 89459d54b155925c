import type { z } from 'zod';
import type { KeyServerEngine } from '../engine/engine.js';
import type { OperationArgs, OperationName, OPERATIONS } from '../protocol/keyserver-protocol.js';

type Handler<N extends OperationName> = (engine: KeyServerEngine, token: string, args: OperationArgs<N>) => z.input<(typeof OPERATIONS)[N]['result']>;

/**
 * `POST /v1/op/<name>`: each protocol operation mapped to the engine method that does it. The
 * engine authenticates the token and decides every authorization itself.
 */
export const OPERATION_HANDLERS: { readonly [N in OperationName]: Handler<N> } = {
  whoami: (engine, token) => engine.whoami(token),
  generateKey: (engine, token, args) => engine.generateKey(token, args),
  exportKey: (engine, token, args) => {
    const blob = engine.exportKey(token, args.ttag);
    try {
      return { nid: blob.nid, key: blob.key.toString('base64') };
    } finally {
      blob.key.fill(0);
    }
  },
  readAcl: (engine, token, args) => engine.readAcl(token, args.ttag),
  grant: (engine, token, args) => engine.grant(token, args.ttag, args.principal, args.rights),
  revoke: (engine, token, args) => (engine.revoke(token, args.ttag, args.principal), null),
  revokeToken: (engine, token) => (engine.revokeToken(token), null),
};

/** Runs one operation; the generic ties the name to its arguments. */
export function runOperation<N extends OperationName>(engine: KeyServerEngine, name: N, token: string, args: OperationArgs<N>): unknown {
  return (OPERATION_HANDLERS[name] as Handler<N>)(engine, token, args);
}
