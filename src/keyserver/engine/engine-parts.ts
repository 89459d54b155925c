import type { KeyServerEngine } from './engine.js';
import { IdentityOperations } from './identity-operations.js';

/** The engine and its identity operations, as the embedded adapter and the daemon both hold them. */
export interface EngineParts {
  readonly engine: KeyServerEngine;
  readonly identity: IdentityOperations;
}

export function engineParts(engine: KeyServerEngine): EngineParts {
  return { engine, identity: new IdentityOperations(engine) };
}
