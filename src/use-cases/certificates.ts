import type { KeyServer } from '../ports/key-server.port.js';
import type { CertificateInfo } from '../wire/certificate.js';
import type { CertificateQuery, CertificateVerdict } from '../wire/certificate-verdict.js';
import type { ListResult } from '../wire/list-result.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** Certificate objects (docs/spec.md §4.11): looked up, parsed and verified by the key server. */
export class CertificateUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  list(caller: Caller, query: CertificateQuery): Promise<ListResult<CertificateInfo>> {
    return withConnection(this.#keyServer, caller, (connection) =>
      connection.call('listCertificates', { subject: query.subject, principal: query.principal, limit: query.limit, cursor: query.cursor }),
    );
  }

  read(caller: Caller, id: string): Promise<CertificateInfo> {
    return withConnection(this.#keyServer, caller, (connection) => connection.call('readCertificate', { id }));
  }

  parse(caller: Caller, pem: string): Promise<CertificateInfo> {
    return withConnection(this.#keyServer, caller, (connection) => connection.call('parseCertificate', { pem }));
  }

  verify(caller: Caller, pem: string): Promise<CertificateVerdict> {
    return withConnection(this.#keyServer, caller, (connection) => connection.call('verifyCertificate', { pem }));
  }
}
