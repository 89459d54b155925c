import { KeyServerFailedError, KeyServerUnavailableError } from '../../src/domain/errors/index.js';
import type { Secret } from '../../src/domain/secret/secret.js';
import type { CallArgs, CallResult, KeyServer, KeyServerConnection, KeyServerDaemon } from '../../src/ports/key-server.port.js';
import type { OperationName } from '../../src/wire/keyserver-operations.js';
import { LIST_OPERATIONS, type ListOperation, WRITE_FAULTS, type WriteOperation } from './write-faults.js';

export type { ListOperation, WriteOperation };

/** Faults a test can switch on. Each is a test tool proving a failure path, not a mock of success. */
export interface Faults {
  /** The key server cannot be reached at all. */
  unreachable?: boolean;
  /** Grants are acknowledged but not stored (same as dropWrites: ['grant']). */
  dropGrants?: boolean;
  /** Grants are stored with other rights than asked (same as alterWrites: ['grant']). */
  alterGrants?: boolean;
  /** Revocations are acknowledged but not performed (same as dropWrites: ['revoke']). */
  dropRevokes?: boolean;
  /** These writes are acknowledged but not performed: the read-back finds the old state. */
  dropWrites?: WriteOperation[];
  /** These writes are performed with other values than asked: the read-back finds a different state. */
  alterWrites?: WriteOperation[];
  /**
   * Lists: `unavailable` drops the connection in the middle of every list (and of ACL reads);
   * `partial` answers half of every list, flagged incomplete as the key server flags it.
   */
  lists?: 'unavailable' | 'partial';
  /**
   * Another writer overtakes every grant and revoke: right after the key server applied it, the
   * opposite change to the same entry is applied (a revoke; a grant of `read`), before the read-back.
   */
  overtakeAclWrites?: boolean;
  /** Every operation on a connection fails with a key-server error. */
  failOperations?: boolean;
  /** A non-domain exception (a bug) from key generation. */
  crashOnGenerate?: boolean;
  /**
   * Every `withdrawKey` (a gateway's undo) waits for this before it reaches the key server, so a test
   * can put another request between a failed record and its undo; `withdrawals` then settles with it.
   */
  holdWithdrawals?: Promise<void>;
}

/** Wraps a real key server and injects the switched-on faults. */
export class FaultyKeyServer implements KeyServer {
  readonly faults: Faults = {};
  /** The operations that reached the real key server, in order (`login`, then protocol names: `generateKey`, `grant`, ...). */
  readonly calls: string[] = [];
  /** Each `withdrawKey` asked for, held or not, settling when the key server has answered it. */
  readonly withdrawals: Promise<unknown>[] = [];
  readonly #inner: KeyServer;

  constructor(inner: KeyServer) {
    this.#inner = inner;
  }

  login(user: string, password: Secret) {
    if (this.faults.unreachable) return Promise.reject(new KeyServerUnavailableError('connect ECONNREFUSED 127.0.0.1:1'));
    this.calls.push('login');
    return this.#inner.login(user, password);
  }

  certificateChallenge(pem: string) {
    if (this.faults.unreachable) return Promise.reject(new KeyServerUnavailableError('unreachable'));
    return this.#inner.certificateChallenge(pem);
  }

  certificateLogin(challengeId: string, signature: Buffer) {
    if (this.faults.unreachable) return Promise.reject(new KeyServerUnavailableError('unreachable'));
    return this.#inner.certificateLogin(challengeId, signature);
  }

  workloadLogin(request: Parameters<KeyServer['workloadLogin']>[0]) {
    if (this.faults.unreachable) return Promise.reject(new KeyServerUnavailableError('unreachable'));
    return this.#inner.workloadLogin(request);
  }

  async connect(token: Secret): Promise<KeyServerConnection> {
    if (this.faults.unreachable) throw new KeyServerUnavailableError('connect ECONNREFUSED 127.0.0.1:1');
    return faultyConnection(await this.#inner.connect(token), this.faults, this.calls, this.withdrawals);
  }

  async connectAsGateway(): Promise<KeyServerConnection> {
    if (this.faults.unreachable) throw new KeyServerUnavailableError('connect ECONNREFUSED 127.0.0.1:1');
    return this.#inner.connectAsGateway();
  }

  fingerprint(): string {
    return this.#inner.fingerprint();
  }

  daemons(): readonly KeyServerDaemon[] {
    return this.#inner.daemons();
  }

  ping(): Promise<void> {
    if (this.faults.unreachable) return Promise.reject(new KeyServerUnavailableError('unreachable'));
    return this.#inner.ping();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

type LooseFault = { drop: (inner: KeyServerConnection, args: unknown) => Promise<unknown>; alter?: LooseFault['drop'] };

function isDropped(faults: Faults, name: string): boolean {
  return (
    (faults.dropWrites ?? []).includes(name as WriteOperation) ||
    (name === 'grant' && faults.dropGrants === true) ||
    (name === 'revoke' && faults.dropRevokes === true)
  );
}

function isAltered(faults: Faults, name: string): boolean {
  return (faults.alterWrites ?? []).includes(name as WriteOperation) || (name === 'grant' && faults.alterGrants === true);
}

/** Every operation goes to the real connection unless a switched-on fault takes it. */
function faultyConnection(
  inner: KeyServerConnection,
  faults: Faults,
  calls: string[],
  withdrawals: Promise<unknown>[],
): KeyServerConnection {
  async function faultyCall(name: OperationName, args: unknown): Promise<unknown> {
    const real = () => inner.call(name, args as never);
    calls.push(name);
    if (name === 'revokeToken') return real();
    if (faults.failOperations) throw new KeyServerFailedError('key server says: operation failed');
    if (name === 'generateKey' && faults.crashOnGenerate) throw new TypeError('secret internal detail at /srv/keygate/engine.ts:42');
    if (name === 'withdrawKey' && faults.holdWithdrawals !== undefined) {
      const held = faults.holdWithdrawals.then(real);
      withdrawals.push(held.catch(() => undefined));
      return held;
    }
    const write = (WRITE_FAULTS as Record<string, LooseFault | undefined>)[name];
    if (write && isDropped(faults, name)) return write.drop(inner, args);
    if (write?.alter && isAltered(faults, name)) return write.alter(inner, args);
    if (faults.overtakeAclWrites && (name === 'grant' || name === 'revoke')) return overtaken(inner, name, args as CallArgs<'grant'>);
    if (faults.lists && (LIST_OPERATIONS as readonly string[]).includes(name)) return listFault(faults.lists, real);
    if (faults.lists === 'unavailable' && name === 'readAcl') throw new KeyServerUnavailableError('connection reset while reading an ACL');
    return real();
  }
  return {
    call: <N extends OperationName>(name: N, args: CallArgs<N>) => faultyCall(name, args) as Promise<CallResult<N>>,
    close: () => inner.close(),
  };
}

async function listFault(mode: 'unavailable' | 'partial', read: () => Promise<unknown>): Promise<unknown> {
  if (mode === 'unavailable') throw new KeyServerUnavailableError('connection reset while reading a list');
  const whole = (await read()) as { items: unknown[] };
  return {
    ...whole,
    items: whole.items.slice(0, Math.floor(whole.items.length / 2)),
    complete: false,
    reason: 'the key server read only part of the list',
  };
}

/** Applies the write, then the opposite change to the same entry, as a second writer would; answers the first. */
async function overtaken(inner: KeyServerConnection, name: 'grant' | 'revoke', args: CallArgs<'grant'>) {
  const { ttag, principal } = args;
  if (name === 'grant') {
    const answer = await inner.call('grant', args);
    await inner.call('revoke', { ttag, principal });
    return answer;
  }
  const answer = await inner.call('revoke', { ttag, principal });
  await inner.call('grant', { ttag, principal, rights: ['read'] });
  return answer;
}
