import type { KeyServer } from '../ports/key-server.port.js';
import { redactSecrets } from '../wire/redact-secrets.js';
import type { ServerParameter } from '../wire/server.js';
import { verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** Server administration (docs/spec.md §4.13). */
export class ServerUseCases {
  readonly #keyServer: KeyServer;
  readonly #gatewayVersion: string;

  constructor(deps: { keyServer: KeyServer; gatewayVersion: string }) {
    this.#keyServer = deps.keyServer;
    this.#gatewayVersion = deps.gatewayVersion;
  }

  version(caller: Caller): Promise<{ keyServer: string; gateway: string }> {
    return withConnection(this.#keyServer, caller, async (connection) => ({
      keyServer: (await connection.call('serverVersion', {})).keyServer,
      gateway: this.#gatewayVersion,
    }));
  }

  /** The key server redacts its secrets; the gateway redacts again, so none can pass through it. */
  config(caller: Caller): Promise<Record<string, unknown>> {
    return withConnection(
      this.#keyServer,
      caller,
      async (connection) => redactSecrets(await connection.call('serverConfig', {})) as Record<string, unknown>,
    );
  }

  /** The read-back must show the value asked. */
  setParameter(caller: Caller, name: string, value: unknown): Promise<ServerParameter> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const find = async () => (await connection.call('listParameters', {})).items.find((item) => item.name === name);
      const before = await find();
      await connection.call('setParameter', { name, value: value as ServerParameter['value'] });
      return verifyWrite(`parameter ${name}`, value, (parameter: ServerParameter) => parameter.value, await find(), before);
    });
  }
}
