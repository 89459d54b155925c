import type { Right } from '../../wire/acl.js';
import { aliasOf } from '../../wire/alias.js';
import type { EncryptionContext } from '../../wire/encryption-context.js';
import type { Operation } from '../../wire/operations.js';
import type { Requester } from '../model/acl.js';
import { decideAccess, isOwner } from '../model/evaluate-access.js';
import {
  AclDeniedError,
  ContextRequiredError,
  NotFoundError,
  OutOfScopeError,
  RoleDeniedError,
  SessionExpiredError,
} from '../model/key-server-errors.js';
import type { EngineAuthority, TokenContext } from './engine-context.js';
import { delegationRefusal, NEVER_DELEGABLE } from './engine-delegation.js';
import type { KeyRow, PrincipalRow } from './engine-model.js';
import { principalOperations } from './engine-roles.js';
import type { EngineStore } from './engine-store.port.js';
import { hashToken } from './engine-tokens.js';
import { aclOf, requesterOf } from './engine-views.js';

/** The engine's checks over its store and clock (see EngineAuthority for the order of checks). */
export class StoreAuthority implements EngineAuthority {
  readonly #store: EngineStore;
  readonly #now: () => number;

  constructor(store: EngineStore, now: () => number) {
    this.#store = store;
    this.#now = now;
  }

  async authenticate(token: string): Promise<TokenContext> {
    const row = await this.#store.token(hashToken(token));
    if (!row) throw new SessionExpiredError('invalid token');
    if (row.expiresAt !== undefined && row.expiresAt <= this.#now()) {
      await this.#store.deleteToken(row.tokenHash);
      throw new SessionExpiredError('token expired');
    }
    const principal = await this.#store.principalById(row.principalId);
    if (!principal || principal.disabled) throw new SessionExpiredError('invalid token');
    // docs/spec.md §4.18 item 3: a delegated token lives only while its service may still act for the target.
    if (
      row.actingFor !== undefined &&
      (await delegationRefusal(this.#store, await this.#store.principalByName(row.actingFor), principal)) !== undefined
    ) {
      await this.#store.deleteToken(row.tokenHash);
      throw new SessionExpiredError('the delegation behind this token has ended');
    }
    return { principal, token: row };
  }

  /** A principal's operations are the union of its roles and its groups' roles. */
  async requireOperation(caller: TokenContext, operation: Operation): Promise<void> {
    this.#refuseNeverDelegable(caller, operation);
    if (!(await principalOperations(this.#store, caller.principal)).has(operation)) {
      throw new RoleDeniedError(`${operation}: not permitted for ${caller.principal.name}`);
    }
  }

  async authorizeOperation(token: string, operation: Operation): Promise<TokenContext> {
    const caller = await this.authenticate(token);
    await this.requireOperation(caller, operation);
    this.requireScope(caller, undefined, 'manage');
    return caller;
  }

  async authorizeOwnOr(token: string, principal: string, own: Operation, any: Operation): Promise<TokenContext> {
    const caller = await this.authenticate(token);
    const held = await principalOperations(this.#store, caller.principal);
    this.#refuseNeverDelegable(caller, own);
    if (!(caller.principal.name === principal && held.has(own))) await this.requireOperation(caller, any);
    this.requireScope(caller, undefined, 'manage');
    return caller;
  }

  #refuseNeverDelegable(caller: TokenContext, operation: Operation): void {
    if (caller.token.actingFor !== undefined && NEVER_DELEGABLE.has(operation)) {
      throw new RoleDeniedError(`${operation}: never delegable (the session acts for ${caller.token.actingFor})`);
    }
  }

  requireScope(caller: TokenContext, ttag: string | undefined, right: Right | 'manage'): void {
    const scope = caller.token.scope;
    if (scope === undefined) return;
    const rights = ttag === undefined ? undefined : scope[ttag];
    if (rights === undefined || right === 'manage' || !rights.includes(right)) throw new OutOfScopeError();
  }

  async authorizeKey(caller: TokenContext, ttag: string, right: Right, context?: EncryptionContext): Promise<KeyRow> {
    const key = await this.keyOrThrow(ttag);
    // docs/spec.md §4.5b item 4: after the ACL, before the scope; the detail names members, never a value.
    const decision = decideAccess(aclOf(key), await this.requesterOf(caller.principal), right, context);
    if (!decision.held && decision.unmet === undefined) throw new AclDeniedError(`${right}: not the owner and not granted`);
    if (!decision.held) {
      throw new ContextRequiredError(`${right}: granted only with an encryption context holding ${decision.unmet?.join(', ')}`);
    }
    // A scope names keys by ttag: a key named by alias is checked by the ttag the alias resolved to.
    this.requireScope(caller, key.ttag, right);
    return key;
  }

  async ownedKey(caller: PrincipalRow, ttag: string, operation: string): Promise<KeyRow> {
    const key = await this.keyOrThrow(ttag);
    if (!isOwner(aclOf(key), await this.requesterOf(caller))) throw new AclDeniedError(`${operation}: only the owner may do this`);
    return key;
  }

  async requesterOf(principal: PrincipalRow): Promise<Requester> {
    return requesterOf(principal, this.#store);
  }

  async principalOrThrow(name: string): Promise<PrincipalRow> {
    const row = await this.#store.principalByName(name);
    if (!row) throw new NotFoundError(`no such principal: ${name}`);
    return row;
  }

  /**
   * The one place an operation looks its key up: `alias/<name>` is resolved here, in the operation's
   * unit of the store, so an operation sees an alias before or after a move, never a mix
   * (docs/spec.md §4.23 item 3). An alias that names no key is NOT_FOUND as an unknown ttag is.
   */
  async keyOrThrow(ttag: string): Promise<KeyRow> {
    const alias = aliasOf(ttag);
    const named = alias === undefined ? ttag : (await this.#store.alias(alias))?.ttag;
    const key = named === undefined ? undefined : await this.#store.key(named);
    if (!key) throw new NotFoundError(alias === undefined ? 'no such key' : `no such alias: ${alias}`);
    return key;
  }
}
