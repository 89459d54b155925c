import { KeyServerFailedError, KeyServerUnavailableError } from '../../src/domain/errors/index.js';
import type { Secret } from '../../src/domain/secret/secret.js';
import type { KeyServer, KeyServerConnection } from '../../src/ports/key-server.port.js';

/** Faults a test can switch on. Each is a test tool proving a failure path, not a mock of success. */
export interface Faults {
  /** The key server cannot be reached at all. */
  unreachable?: boolean;
  /** Grants are acknowledged but not stored. */
  dropGrants?: boolean;
  /** Grants are stored with other rights than asked. */
  alterGrants?: boolean;
  /** Revocations are acknowledged but not performed. */
  dropRevokes?: boolean;
  /** Every operation on a connection fails with a key-server error. */
  failOperations?: boolean;
  /** A non-domain exception (a bug) from key generation. */
  crashOnGenerate?: boolean;
}

/** Wraps a real key server and injects the switched-on faults. */
export class FaultyKeyServer implements KeyServer {
  readonly faults: Faults = {};
  /** The operations that reached the real key server, in order (`generateKey`, `grant`, ...). */
  readonly calls: string[] = [];
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

  async connect(token: Secret): Promise<KeyServerConnection> {
    if (this.faults.unreachable) throw new KeyServerUnavailableError('connect ECONNREFUSED 127.0.0.1:1');
    const inner = await this.#inner.connect(token);
    const faults = this.faults;
    const calls = this.calls;
    const fail = (operation: string) => {
      calls.push(operation);
      if (faults.failOperations) throw new KeyServerFailedError('key server says: operation failed');
    };
    return {
      ...passThrough(inner),
      whoami: async () => (fail('whoami'), inner.whoami()),
      generateKey: async (options) => {
        fail('generateKey');
        if (faults.crashOnGenerate) throw new TypeError('secret internal detail at /srv/keygate/engine.ts:42');
        return inner.generateKey(options);
      },
      exportKey: async (ttag) => (fail('exportKey'), inner.exportKey(ttag)),
      readAcl: async (ttag) => (fail('readAcl'), inner.readAcl(ttag)),
      grant: async (ttag, principal, rights) => {
        fail('grant');
        if (faults.dropGrants) return (await inner.readAcl(ttag), { user: principal, systemId: 0, principalId: '0000000000000000' });
        if (faults.alterGrants) return inner.grant(ttag, principal, ['read']);
        return inner.grant(ttag, principal, rights);
      },
      revoke: async (ttag, principal) => {
        fail('revoke');
        if (faults.dropRevokes) return;
        return inner.revoke(ttag, principal);
      },
      signOut: () => (calls.push('signOut'), inner.signOut()),
      close: () => inner.close(),
    };
  }

  fingerprint(): string {
    return this.#inner.fingerprint();
  }

  ping(): Promise<void> {
    if (this.faults.unreachable) return Promise.reject(new KeyServerUnavailableError('unreachable'));
    return this.#inner.ping();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** Every connection method, bound to the real connection: the faults above override some of them. */
function passThrough(inner: KeyServerConnection): KeyServerConnection {
  return {
    whoami: () => inner.whoami(),
    generateKey: (options) => inner.generateKey(options),
    exportKey: (ttag) => inner.exportKey(ttag),
    readAcl: (ttag) => inner.readAcl(ttag),
    grant: (ttag, principal, rights) => inner.grant(ttag, principal, rights),
    revoke: (ttag, principal) => inner.revoke(ttag, principal),
    mintScoped: (request) => inner.mintScoped(request),
    mintDelegated: (target) => inner.mintDelegated(target),
    addTrustAuthority: (pem) => inner.addTrustAuthority(pem),
    enrollCertificate: (principal, pem) => inner.enrollCertificate(principal, pem),
    putSenderKey: (principal, jwk) => inner.putSenderKey(principal, jwk),
    readPolicy: () => inner.readPolicy(),
    setPolicy: (name, value) => inner.setPolicy(name, value),
    signOut: () => inner.signOut(),
    close: () => inner.close(),
  };
}
