import { KeyServerFailedError } from '../../domain/errors/index.js';
import { Secret } from '../../domain/secret/secret.js';
import type { CallArgs, CallResult, KeyServerConnection, PortArgs, PortResults } from '../../ports/key-server.port.js';
import type { OperationArgs, OperationName, OperationResult } from '../../wire/keyserver-operations.js';

/**
 * Runs one key-server operation by its protocol name (src/wire/keyserver-operations.ts) with the
 * connection's token: the embedded engine in-process, or `POST /v1/op/<name>` to a daemon.
 */
export type Invoke = <N extends OperationName>(name: N, args: OperationArgs<N>) => Promise<OperationResult<N>>;

/**
 * The one KeyServerConnection of both deployments: `call` hands the operation to `invoke` as the
 * protocol names it, and translates, in this one place, the few arguments and results the port holds
 * in its own terms (`PortArgs`, `PortResults`); every other operation passes through as it is.
 */
export class OperationConnection implements KeyServerConnection {
  readonly #invoke: Invoke;
  readonly #onClose: () => void;
  #closed = false;

  constructor(invoke: Invoke, onClose: () => void = () => {}) {
    this.#invoke = invoke;
    this.#onClose = onClose;
  }

  async call<N extends OperationName>(name: N, args: CallArgs<N>): Promise<CallResult<N>> {
    if (this.#closed) throw new KeyServerFailedError('connection is closed');
    const arguments_ = (Object.hasOwn(ARGS, name) ? ARGS[name as keyof PortArgs](args as never) : args) as OperationArgs<N>;
    const result = await this.#invoke(name, arguments_);
    return (
      Object.hasOwn(RESULTS, name) ? RESULTS[name as keyof PortResults](result as never, arguments_ as never) : result
    ) as CallResult<N>;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#onClose();
  }
}

/** The port's arguments into the protocol's: a proof token is revealed only here, on its way out. */
const ARGS: { readonly [N in keyof PortArgs]: (args: PortArgs[N]) => OperationArgs<N> } = {
  setPassword: ({ currentProof, ...args }) => (currentProof === undefined ? args : { ...args, currentProof: currentProof.reveal() }),
};

/** The protocol's results into the port's, given the arguments sent. */
const RESULTS: { readonly [N in keyof PortResults]: (result: OperationResult<N>, args: OperationArgs<N>) => PortResults[N] } = {
  // A key server that does not say (older than `replayed`): without an Idempotency-Key nothing is
  // replayed; with one it may be, and a key that may be another request's is never undone.
  generateKey: ({ ttag, replayed }, args) => ({ ttag, replayed: replayed ?? args.idempotency !== undefined }),
  mintScoped: (minted) => ({ ...minted, token: new Secret(minted.token), expiresAt: minted.expiresAt ?? undefined }),
  mintDelegated: (minted) => ({ ...minted, token: new Secret(minted.token), expiresAt: minted.expiresAt ?? undefined }),
};
