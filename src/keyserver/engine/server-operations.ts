import type { ListResult } from '../../wire/list-result.js';
import { redactSecrets } from '../../wire/redact-secrets.js';
import type { KeyServerVersion, ServerParameter } from '../../wire/server.js';
import type { KeyServerEngine } from './engine.js';

/** Server administration (api-surface.md operations 43-46). */
export class ServerOperations {
  readonly #engine: KeyServerEngine;

  constructor(engine: KeyServerEngine) {
    this.#engine = engine;
  }

  version(token: string): KeyServerVersion {
    this.#engine.authorizeOperation(token, 'server.version');
    return { keyServer: this.#engine.version };
  }

  /** How the key server was started, with every secret redacted. */
  config(token: string): Record<string, unknown> {
    this.#engine.authorizeOperation(token, 'server.config');
    return redactSecrets({ version: this.#engine.version, ...this.#engine.config }) as Record<string, unknown>;
  }

  parameters(token: string): ListResult<ServerParameter> {
    this.#engine.authorizeOperation(token, 'server.parameters.read');
    return { items: this.#engine.parameters.list(), complete: true };
  }

  /** Unknown name: NOT_FOUND; wrong type or out of range: BAD_REQUEST. */
  setParameter(token: string, name: string, value: unknown): ServerParameter {
    this.#engine.authorizeOperation(token, 'server.parameters.write');
    return this.#engine.parameters.set(name, value);
  }
}
