import type { KeyServer } from '../ports/key-server.port.js';
import type { ProvisioningPolicy } from '../wire/certificate.js';
import { verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** The auto-provisioning policy for externally authenticated X.509 logins (docs/spec.md §4.14). */
export class PolicyUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  /** Sets one parameter; the read-back must show the value asked. */
  set(caller: Caller, name: string, value: unknown): Promise<ProvisioningPolicy> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const before = await connection.call('readPolicy', {});
      await connection.call('setPolicy', { name, value });
      const project = (policy: ProvisioningPolicy) => (policy as unknown as Record<string, unknown>)[name];
      return verifyWrite(`policy ${name}`, value, project, await connection.call('readPolicy', {}), before);
    });
  }
}
