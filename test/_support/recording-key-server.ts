import type { Secret } from '../../src/domain/secret/secret.js';
import type { KeyServer, KeyServerConnection, KeyServerDaemon } from '../../src/ports/key-server.port.js';

/** One ACL write as the key server answered it: which key, which kind, and the revision it produced. */
export interface AppliedAclWrite {
  readonly ttag: string;
  readonly kind: 'grant' | 'revoke';
  readonly principal: string;
  /** A grant's rights, as asked. */
  readonly rights?: readonly string[];
  readonly revision: number | undefined;
}

/**
 * Passes every call to a real key server and notes the ACL writes it answered, with the revision each
 * produced: the write with the highest revision on a key is the last one the key server applied.
 * An observer, not a stand-in: nothing is changed on the way.
 */
export class RecordingKeyServer implements KeyServer {
  readonly writes: AppliedAclWrite[] = [];
  readonly #inner: KeyServer;

  constructor(inner: KeyServer) {
    this.#inner = inner;
  }

  /** The last write the key server applied to `ttag`'s ACL (highest revision), if any was answered. */
  lastWrite(ttag: string): AppliedAclWrite | undefined {
    let last: AppliedAclWrite | undefined;
    for (const write of this.writes) {
      if (write.ttag === ttag && write.revision !== undefined && (last === undefined || write.revision > last.revision!)) last = write;
    }
    return last;
  }

  login(user: string, password: Secret) {
    return this.#inner.login(user, password);
  }

  certificateChallenge(pem: string) {
    return this.#inner.certificateChallenge(pem);
  }

  certificateLogin(challengeId: string, signature: Buffer) {
    return this.#inner.certificateLogin(challengeId, signature);
  }

  workloadLogin(request: Parameters<KeyServer['workloadLogin']>[0]) {
    return this.#inner.workloadLogin(request);
  }

  connectAsGateway(): Promise<KeyServerConnection> {
    return this.#inner.connectAsGateway();
  }

  async connect(token: Secret): Promise<KeyServerConnection> {
    const inner = await this.#inner.connect(token);
    const writes = this.writes;
    const note = (ttag: string, kind: AppliedAclWrite['kind'], principal: string, rights: unknown, answer: unknown) => {
      const revision = (answer as { revision?: unknown } | undefined)?.revision;
      writes.push({
        ttag,
        kind,
        principal,
        ...(Array.isArray(rights) ? { rights: [...(rights as string[])] } : {}),
        revision: typeof revision === 'number' ? revision : undefined,
      });
      return answer;
    };
    return {
      async call(name, args) {
        const answer = await inner.call(name, args);
        if (name === 'grant' || name === 'revoke') {
          const { ttag, principal, rights } = args as { ttag: string; principal: string; rights?: unknown };
          note(ttag, name, principal, rights, answer);
        }
        return answer;
      },
      close: () => inner.close(),
    } satisfies KeyServerConnection;
  }

  fingerprint(): string {
    return this.#inner.fingerprint();
  }

  daemons(): readonly KeyServerDaemon[] {
    return this.#inner.daemons();
  }

  ping(): Promise<void> {
    return this.#inner.ping();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
