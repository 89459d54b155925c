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

  async version(token: string): Promise<KeyServerVersion> {
    await this.#ctx.auth.authorizeOperation(token, 'server.version');
    return { keyServer: this.#about.version };
  }

  /** How the key server was started, with every secret redacted. */
  async config(token: string): Promise<Record<string, unknown>> {
    await this.#ctx.auth.authorizeOperation(token, 'server.config');
    return redactSecrets({ version: this.#about.version, ...this.#about.config }) as Record<string, unknown>;
  }

  async parameters(token: string): Promise<ListResult<ServerParameter>> {
    await this.#ctx.auth.authorizeOperation(token, 'server.parameters.read');
    return { items: await this.#ctx.parameters.list(), complete: true };
  }

  /** Unknown name: NOT_FOUND; wrong type or out of range: BAD_REQUEST. */
  async setParameter(token: string, name: string, value: unknown): Promise<ServerParameter> {
    await this.#ctx.auth.authorizeOperation(token, 'server.parameters.write');
    return await this.#ctx.parameters.set(name, value);
  }
}
