import type { ListResult } from '../../wire/list-result.js';
import { redactSecrets } from '../../wire/redact-secrets.js';
import type { KeyServerVersion, ServerParameter } from '../../wire/server.js';
import type { EngineContext } from './engine-context.js';

/** What the key server says of itself: its version and how it was started. */
export interface ServerDescription {
  readonly version: string;
  readonly config: Readonly<Record<string, unknown>>;
}

/** Server administration (docs/spec.md §4.13). */
export class ServerOperations {
  readonly #ctx: EngineContext;
  readonly #about: ServerDescription;

  constructor(ctx: EngineContext, about: ServerDescription) {
    this.#ctx = ctx;
    this.#about = about;
  }

  version(token: string): KeyServerVersion {
    this.#ctx.auth.authorizeOperation(token, 'server.version');
    return { keyServer: this.#about.version };
  }

  /** How the key server was started, with every secret redacted. */
  config(token: string): Record<string, unknown> {
    this.#ctx.auth.authorizeOperation(token, 'server.config');
    return redactSecrets({ version: this.#about.version, ...this.#about.config }) as Record<string, unknown>;
  }

  parameters(token: string): ListResult<ServerParameter> {
    this.#ctx.auth.authorizeOperation(token, 'server.parameters.read');
    return { items: this.#ctx.parameters.list(), complete: true };
  }

  /** Unknown name: NOT_FOUND; wrong type or out of range: BAD_REQUEST. */
  setParameter(token: string, name: string, value: unknown): ServerParameter {
    this.#ctx.auth.authorizeOperation(token, 'server.parameters.write');
    return this.#ctx.parameters.set(name, value);
  }
}
