import type { CertificateInfo, ProvisioningPolicy } from '../domain/certificate/certificate.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/**
 * Certificate trust, enrollment, sender keys and the provisioning policy (api-surface.md operations
 * 28, 40, 42, 47, 48): the key server decides; the gateway carries the call.
 */
export class IdentityAdminUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  addTrustAuthority(caller: Caller, pem: string): Promise<CertificateInfo> {
    return withConnection(this.#keyServer, caller, (connection) => connection.addTrustAuthority(pem));
  }

  enrollCertificate(caller: Caller, principal: string, pem: string): Promise<CertificateInfo> {
    return withConnection(this.#keyServer, caller, (connection) => connection.enrollCertificate(principal, pem));
  }

  readPolicy(caller: Caller): Promise<ProvisioningPolicy> {
    return withConnection(this.#keyServer, caller, (connection) => connection.readPolicy());
  }

  setPolicy(caller: Caller, name: string, value: unknown): Promise<ProvisioningPolicy> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const written = await connection.setPolicy(name, value);
      return written;
    });
  }
}
