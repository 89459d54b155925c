import { NotSavedError, NotVerifiedError } from '../domain/errors/index.js';
import type { KeyServer, KeyServerConnection } from '../ports/key-server.port.js';
import type { SessionStore } from '../ports/session-store.port.js';
import type { CertificateInfo } from '../wire/certificate.js';
import type { IssuerSettings, WorkloadIssuer } from '../wire/workload-issuer.js';
import { readBack, verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** Certificate trust (docs/spec.md §4.12); every change is verified by reading back. */
export class TrustUseCases {
  readonly #keyServer: KeyServer;
  readonly #sessions: SessionStore;

  constructor(deps: { keyServer: KeyServer; sessions: SessionStore }) {
    this.#keyServer = deps.keyServer;
    this.#sessions = deps.sessions;
  }

  /** The authority must be on the trusted list when read back. */
  addAuthority(caller: Caller, pem: string): Promise<CertificateInfo> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const added = await connection.call('addTrustAuthority', { pem });
      const found = await findAuthority(connection, added.id);
      if (found === undefined) throw new NotSavedError('the authority is not on the trusted list when read back');
      return found;
    });
  }

  /**
   * The authority must be gone from the trusted list when read back. The key server ends the tokens
   * its services delegated; their sessions here are refused at their next call (SESSION_EXPIRED).
   */
  removeAuthority(caller: Caller, id: string): Promise<void> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.call('removeTrustAuthority', { id });
      if ((await findAuthority(connection, id)) !== undefined) throw new NotSavedError('the authority is still trusted when read back');
    });
  }

  /**
   * The certificate must read back as enrolled to the principal asked. A new certificate is a
   * credential change: every session the principal delegated (a service) ends.
   */
  async enroll(caller: Caller, principal: string, pem: string): Promise<CertificateInfo> {
    const enrolled = await withConnection(this.#keyServer, caller, async (connection) => {
      const written = await connection.call('enrollCertificate', { principal, pem });
      const after = await readBack(() => connection.call('readCertificate', { id: written.id }));
      return verifyWrite(`enrollment to ${principal}`, principal, (cert: CertificateInfo) => cert.principal, after);
    });
    await this.#sessions.deleteActingFor(principal);
    return enrolled;
  }

  /** A trusted issuer of workload tokens (docs/spec.md §4.24 item 1), created or replaced; it must read back as asked. */
  putIssuer(caller: Caller, name: string, settings: IssuerSettings): Promise<WorkloadIssuer> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.call('putIssuer', { name, settings: { ...settings } });
      const after = await readBack(() => connection.call('readIssuer', { name }));
      return verifyWrite(`issuer ${name}`, { name, ...settings }, (issuer: WorkloadIssuer) => issuer, after);
    });
  }

  /** The issuer must be gone when read back; its workloads' sessions live on until they end. */
  deleteIssuer(caller: Caller, name: string): Promise<void> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.call('deleteIssuer', { name });
      if ((await readBack(() => connection.call('readIssuer', { name }))) !== undefined)
        throw new NotSavedError(`issuer ${name}: still trusted when read back`);
    });
  }
}

/** The authority on the trusted list; a list not read whole cannot confirm an absence. */
async function findAuthority(connection: KeyServerConnection, id: string): Promise<CertificateInfo | undefined> {
  const list = await connection.call('listTrustAuthorities', {});
  const found = list.items.find((item) => item.id === id);
  if (found === undefined && !list.complete) throw new NotVerifiedError('the trusted authorities could not be read back whole');
  return found;
}
