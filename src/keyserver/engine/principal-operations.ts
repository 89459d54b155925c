import { BadRequestError, KeyServerError, RoleDeniedError } from '../model/key-server-errors.js';
import type { ListResult } from '../../wire/list-result.js';
import {
  PRINCIPAL_KINDS,
  type NewPrincipal,
  type PasswordVerifier,
  type PrincipalChanges,
  type PrincipalQuery,
  type PrincipalView,
} from '../../wire/principal.js';
import { SRP_GROUP_2048 } from '../../wire/srp/srp-group.js';
import type { SrpVerifier } from '../../wire/srp/srp-verifier.js';
import type { EngineContext, TokenContext } from './engine-context.js';
import { endBrokenDelegations } from './engine-delegation.js';
import { createPrincipal } from './principal-factory.js';
import type { PrincipalRow } from './engine-model.js';
import { roleOperations } from './engine-roles.js';
import { principalView, principalViews } from './engine-views.js';
import { pageOf } from './list-cursor.js';

const DISPLAY_NAME_MAX = 256;

/**
 * Principals (docs/spec.md §4.8). Only admin manages them; a user may read itself and
 * change its own password. A password arrives as an SRP verifier made by the gateway.
 */
export class PrincipalOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /** Principals by name, a page at a time; `cursor` is the opaque `next` of the previous page. */
  list(token: string, query: PrincipalQuery): ListResult<PrincipalView> {
    this.#ctx.auth.authorizeOperation(token, 'principals.list');
    if (query.kind !== undefined && !PRINCIPAL_KINDS.includes(query.kind)) throw new BadRequestError('kind: must be user, group or service');
    const store = this.#ctx.store;
    const page = pageOf(
      query,
      'principals',
      (after, count) => store.principalsAfter(after, count, query.kind),
      (row) => row.name,
    );
    return { ...page, items: page.items.map(principalView) };
  }

  create(token: string, input: NewPrincipal): PrincipalView {
    this.#ctx.auth.authorizeOperation(token, 'principals.create');
    if (!PRINCIPAL_KINDS.includes(input.kind)) throw new BadRequestError('kind: must be user, group or service');
    this.#checkDisplayName(input.displayName);
    if (input.roles !== undefined) this.#checkRoles(input.roles);
    const srp = input.verifier === undefined ? undefined : decodeVerifier(input.verifier);
    createPrincipal(this.#ctx, { name: input.name, kind: input.kind, displayName: input.displayName, roles: input.roles, srp });
    return principalView(this.#ctx.auth.principalOrThrow(input.name));
  }

  /** Operation 23: admin (or auditor) reads anyone, a user itself. */
  read(token: string, name: string): PrincipalView {
    this.#ctx.auth.authorizeOwnOr(token, name, 'principals.read.own', 'principals.read');
    return principalView(this.#ctx.auth.principalOrThrow(name));
  }

  /** Operation 24: only the fields given change. Disabling a principal ends its tokens; not oneself. */
  update(token: string, name: string, changes: PrincipalChanges): PrincipalView {
    const caller = this.#ctx.auth.authorizeOperation(token, 'principals.update');
    const row = this.#ctx.auth.principalOrThrow(name);
    if (changes.disabled === true && caller.principal.principalId === row.principalId) refuseSelf('disable');
    this.#checkDisplayName(changes.displayName);
    if (changes.roles !== undefined) this.#checkRoles(changes.roles);
    if (changes.disabled !== undefined && typeof changes.disabled !== 'boolean') throw new BadRequestError('disabled: must be a boolean');
    if (changes.delegates !== undefined) this.#checkDelegates(row, changes.delegates);
    const updated: PrincipalRow = {
      ...row,
      ...(changes.displayName === undefined ? {} : { displayName: changes.displayName }),
      ...(changes.disabled === undefined ? {} : { disabled: changes.disabled }),
      ...(changes.roles === undefined ? {} : { roles: [...new Set(changes.roles)] }),
      ...(changes.delegates === undefined ? {} : { delegates: [...new Set(changes.delegates)] }),
    };
    this.#ctx.store.putPrincipal(updated);
    if (updated.disabled) {
      this.#ctx.store.deleteTokensOf(row.principalId);
      this.#ctx.store.deleteTokensActingFor(row.name);
    }
    endBrokenDelegations(this.#ctx.store);
    return principalView(updated);
  }

  /** Operation 25: the principal, its tokens, its memberships and its enrolled certificates go; not oneself. */
  remove(token: string, name: string): void {
    const caller = this.#ctx.auth.authorizeOperation(token, 'principals.delete');
    const row = this.#ctx.auth.principalOrThrow(name);
    if (caller.principal.principalId === row.principalId) refuseSelf('delete');
    const store = this.#ctx.store;
    store.deleteTokensOf(row.principalId);
    store.deleteTokensActingFor(row.name);
    store.deleteMembershipsOf(row.principalId);
    for (const cert of store.certificates('enrolled')) if (cert.principalId === row.principalId) store.deleteCertificate(cert.id);
    store.deletePrincipal(row.principalId);
    endBrokenDelegations(store);
  }

  /**
   * Operation 26: admin for anyone, a user or service for itself. Groups have no password. An own
   * change proves the current password (docs/spec.md §4.20); any change ends the principal's other tokens,
   * and every token a service delegated: those stand on the credential that just changed.
   */
  setPassword(token: string, name: string, verifier: PasswordVerifier, currentProof?: string): void {
    const caller = this.#ctx.auth.authorizeOwnOr(token, name, 'principals.password.own', 'principals.password');
    const row = this.#ctx.auth.principalOrThrow(name);
    if (row.kind === 'group') throw new BadRequestError('password: a group has no password');
    const own = caller.principal.principalId === row.principalId;
    if (own) this.#consumeCurrentProof(token, row, currentProof);
    const srp = decodeVerifier(verifier);
    this.#ctx.store.putPrincipal({ ...row, srp });
    this.#ctx.store.deleteTokensOf(row.principalId);
    this.#ctx.store.deleteTokensActingFor(row.name);
    if (own) this.#ctx.store.putToken(caller.token);
  }

  /** The token of a fresh SRP login of the same principal, other than the caller's; single use. */
  #consumeCurrentProof(token: string, row: PrincipalRow, currentProof: string | undefined): void {
    const refuse = () => new RoleDeniedError('principals.password.own: the current password was not proven');
    if (currentProof === undefined || currentProof === token) throw refuse();
    let proof: TokenContext;
    try {
      proof = this.#ctx.auth.authenticate(currentProof);
    } catch {
      throw refuse();
    }
    this.#ctx.store.deleteToken(proof.token.tokenHash);
    const fresh = proof.token.issuedAt >= this.#ctx.now() - this.#ctx.parameters.value('loginHandshakeSeconds') * 1000;
    if (proof.principal.principalId !== row.principalId || proof.token.scope !== undefined || proof.token.actingFor !== undefined || !fresh) throw refuse();
  }

  /** Operation 27: the groups the principal belongs to (the principal itself may read them too). */
  groups(token: string, name: string): ListResult<PrincipalView> {
    this.#ctx.auth.authorizeOwnOr(token, name, 'principals.read.own', 'principals.groups');
    const row = this.#ctx.auth.principalOrThrow(name);
    return { items: principalViews(this.#ctx.store, this.#ctx.store.groupIdsOf(row.principalId)), complete: true };
  }

  #checkDisplayName(displayName: unknown): void {
    if (displayName === undefined) return;
    if (typeof displayName !== 'string' || displayName.length === 0 || displayName.length > DISPLAY_NAME_MAX) {
      throw new BadRequestError(`displayName: a string of 1 to ${DISPLAY_NAME_MAX} characters`);
    }
  }

  /** docs/spec.md §4.18 item 1: only a service has a delegation list, and it names existing principals or groups. */
  #checkDelegates(row: PrincipalRow, delegates: readonly string[]): void {
    if (row.kind !== 'service') throw new BadRequestError('delegates: only a service principal delegates');
    const unknown = delegates.find((name) => typeof name !== 'string' || this.#ctx.store.principalByName(name) === undefined);
    if (unknown !== undefined) throw new BadRequestError(`delegates: no such principal ${String(unknown)}`);
  }

  #checkRoles(roles: readonly string[]): void {
    const unknown = roles.find((role) => typeof role !== 'string' || roleOperations(this.#ctx.store, role) === undefined);
    if (unknown !== undefined) throw new BadRequestError(`roles: no such role ${String(unknown)}`);
  }
}

/** Disabling or deleting oneself would end the very session asking, and may leave no administrator. */
function refuseSelf(action: string): never {
  const reason = `a principal cannot ${action} itself`;
  throw new KeyServerError('CONFLICT', reason, { reason });
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** An SRP-6a verifier record as sent: a 16..64-byte salt and a verifier 1 < v < N (RFC 5054 group). */
function decodeVerifier(record: PasswordVerifier): SrpVerifier {
  const refuse = () => new BadRequestError('verifier: not an SRP-6a verifier record');
  if (typeof record !== 'object' || record === null || !BASE64.test(String(record.salt)) || !BASE64.test(String(record.verifier))) throw refuse();
  const salt = Buffer.from(record.salt, 'base64');
  const verifier = Buffer.from(record.verifier, 'base64');
  if (salt.length < 16 || salt.length > 64 || verifier.length !== SRP_GROUP_2048.byteLength) throw refuse();
  const v = BigInt(`0x${verifier.toString('hex')}`);
  if (v <= 1n || v >= SRP_GROUP_2048.N) throw refuse();
  return { salt, verifier };
}
