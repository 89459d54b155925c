import type { ServerParameter, ServerParameterName } from '../../wire/server.js';
import { BadRequestError, NotFoundError } from '../model/key-server-errors.js';
import type { EngineStore } from './engine-store.port.js';

interface Definition {
  readonly min: number;
  readonly max: number;
  readonly description: string;
}

/**
 * The engine's tunable parameters (docs/spec.md §4.13). Each one is read where it takes
 * effect, so a change applies to the next login or token; a value set at runtime is kept by the store
 * and wins over the start-up default.
 */
const DEFINITIONS = {
  tokenTtlSeconds: {
    min: 0,
    max: 31_536_000,
    description: 'Lifetime in seconds of key-server tokens issued from now on; 0: they do not expire.',
  },
  loginHandshakeSeconds: {
    min: 5,
    max: 600,
    description: 'Seconds the second SRP-6a login step may follow the first.',
  },
  maxPendingLogins: {
    min: 1,
    max: 1_000_000,
    description: 'SRP-6a logins that may be in progress at once; more are refused until some finish.',
  },
} as const satisfies Record<ServerParameterName, Definition>;

export type ParameterName = ServerParameterName;

export class EngineParameters {
  readonly #store: EngineStore;
  readonly #defaults: Readonly<Record<ParameterName, number>>;

  constructor(store: EngineStore, defaults: Readonly<Record<ParameterName, number>>) {
    this.#store = store;
    this.#defaults = defaults;
  }

  async value(name: ParameterName): Promise<number> {
    const stored = await this.#store.setting(`parameter.${name}`);
    return stored === undefined ? this.#defaults[name] : Number(stored);
  }

  async list(): Promise<ServerParameter[]> {
    const views: ServerParameter[] = [];
    for (const name of Object.keys(DEFINITIONS) as ParameterName[]) views.push(await this.#view(name));
    return views;
  }

  /** Unknown name: NOT_FOUND; a value that is not an integer in range: BAD_REQUEST. */
  async set(name: string, value: unknown): Promise<ServerParameter> {
    if (!Object.hasOwn(DEFINITIONS, name)) throw new NotFoundError(`no such server parameter: ${name}`);
    const definition: Definition = DEFINITIONS[name as ParameterName];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < definition.min || value > definition.max) {
      throw new BadRequestError(`value: ${name} is an integer from ${definition.min} to ${definition.max}`);
    }
    await this.#store.putSetting(`parameter.${name}`, String(value));
    return this.#view(name as ParameterName);
  }

  async #view(name: ParameterName): Promise<ServerParameter> {
    return { name, value: await this.value(name), type: 'integer', description: DEFINITIONS[name].description };
  }
}
