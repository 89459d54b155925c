import type { RandomSource } from '../../crypto/random-source.js';
import type { Right } from '../../wire/acl.js';
import type { EncryptionContext } from '../../wire/encryption-context.js';
import type { Operation } from '../../wire/operations.js';
import type { Requester } from '../model/acl.js';
import type { DeletionDays } from './deletion-days.js';
import type { KeyRow, PrincipalRow, TokenRow } from './engine-model.js';
import type { EngineParameters } from './engine-parameters.js';
import type { EngineStore } from './engine-store.port.js';

/** A caller as the engine sees it: the principal and the token it presented. */
export interface TokenContext {
  readonly principal: PrincipalRow;
  readonly token: TokenRow;
}

/**
 * Who calls and what they may do. Order of checks (docs/spec.md §4.3 item 1): the token
 * (SESSION_EXPIRED), the role (ROLE_DENIED), the key's ACL (NOT_FOUND, ACL_DENIED), then a scoped
 * token's list (OUT_OF_SCOPE).
 */
export interface EngineAuthority {
  /** The caller behind a token, or SESSION_EXPIRED (expired, revoked, unknown, disabled principal). */
  authenticate(token: string): Promise<TokenContext>;
  /** ROLE_DENIED unless the caller's roles or its groups' roles hold the operation. */
  requireOperation(caller: TokenContext, operation: Operation): Promise<void>;
  /** An operation not about one key: authenticated, holding it, and not a scoped token. */
  authorizeOperation(token: string, operation: Operation): Promise<TokenContext>;
  /** An operation on a principal its owner may do with `own`, anyone else only with `any`. */
  authorizeOwnOr(token: string, principal: string, own: Operation, any: Operation): Promise<TokenContext>;
  /** A scoped token reaches only its listed keys, with its listed rights; `manage` never. */
  requireScope(caller: TokenContext, ttag: string | undefined, right: Right | 'manage'): void;
  /** The key for a caller holding `right` on it: NOT_FOUND, then ACL_DENIED, then OUT_OF_SCOPE. */
  /**
   * `context` is the request's encryption context (docs/spec.md §4.5b item 4): an entry with a context
   * condition gives its rights only when it is met (CONTEXT_REQUIRED); operations that carry none pass none.
   */
  authorizeKey(caller: TokenContext, ttag: string, right: Right, context?: EncryptionContext): Promise<KeyRow>;
  /** The key, when the caller owns it: NOT_FOUND, then ACL_DENIED. */
  ownedKey(caller: PrincipalRow, ttag: string, operation: string): Promise<KeyRow>;
  /** The principal with its groups, for ACL decisions. */
  requesterOf(principal: PrincipalRow): Promise<Requester>;
  /** The principal by name, or NOT_FOUND. */
  principalOrThrow(name: string): Promise<PrincipalRow>;
  /** The key, or NOT_FOUND. */
  keyOrThrow(ttag: string): Promise<KeyRow>;
}

/**
 * What a family of operations is given: the checks of its callers, the store, the clock, the random
 * source and the tunable parameters. Never the engine itself, so no family depends on another.
 */
export interface EngineContext {
  readonly auth: EngineAuthority;
  readonly store: EngineStore;
  readonly now: () => number;
  readonly random: RandomSource;
  readonly parameters: EngineParameters;
  /** The most versions a key may have (docs/spec.md §4.22 item 2). */
  readonly maxKeyVersions: number;
  /** The fewest and most days a scheduled deletion waits (docs/spec.md §4.23 item 5). */
  readonly deletionDays: DeletionDays;
}
