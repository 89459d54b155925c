import { SRP_GROUP_2048 } from '../../crypto/srp/srp-group.js';
import type { SrpVerifier } from '../../crypto/srp/srp-verifier.js';
import { isStandardBase64 } from '../../wire/base64.js';
import type { ListResult } from '../../wire/list-result.js';
import {
  type NewPrincipal,
  type PasswordVerifier,
  PRINCIPAL_KINDS,
  type PrincipalChanges,
  type PrincipalQuery,
  type PrincipalView,
} from '../../wire/principal.js';
import { BadRequestError, KeyServerError, RoleDeniedError } from '../model/key-server-errors.js';
import type { EngineContext, TokenContext } from './engine-context.js';
import { endBrokenDelegations } from './engine-delegation.js';
import type { PrincipalRow } from './engine-model.js';
import { roleOperations } from './engine-roles.js';
import { principalView, principalViews } from './engine-views.js';
import { refuseLosingLastAdmin } from './last-admin.js';
import { pageOf } from './list-cursor.js';
import { createPrincipal } from './principal-factory.js';

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
  async list(token: string, query: PrincipalQuery): Promise<ListResult<PrincipalView>> {
    await this.#ctx.auth.authorizeOperation(token, 'principals.list');
    if (query.kind !== undefined && !PRINCIPAL_KINDS.includes(query.kind))
      throw new BadRequestError('kind: must be user, group or service');
    const store = this.#ctx.store;
    const page = await pageOf(
      query,
      'principals',
      (after, count) => store.principalsAfter(after, count, query.kind),
      (row) => row.name,
    );
    return { ...page, items: page.items.map(principalView) };
  }

  async create(token: string, input: NewPrincipal): Promise<PrincipalView> {
    await this.#ctx.auth.authorizeOperation(token, 'principals.create');
    if (!PRINCIPAL_KINDS.includes(input.kind)) throw new BadRequestError('kind: must be user, group or service');
    await this.#checkDisplayName(input.displayName);
    if (input.roles !== undefined) await this.#checkRoles(input.roles);
    const srp = input.verifier === undefined ? undefined : decodeVerifier(input.verifier);
    await createPrincipal(this.#ctx, { name: input.name, kind: input.kind, displayName: input.displayName, roles: input.roles, srp });
    return principalView(await this.#ctx.auth.principalOrThrow(input.name));
  }

  /** Operation 23: admin (or auditor) reads anyone, a user itself. */
  async read(token: string, name: string): Promise<PrincipalView> {
    await this.#ctx.auth.authorizeOwnOr(token, name, 'principals.read.own', 'principals.read');
    return principalView(await this.#ctx.auth.principalOrThrow(name));
  }

  /**
   * Operation 24: only the fields given change. Disabling a principal ends its tokens; not oneself, and
   * not the last administrator (last-admin.ts).
   */
  async update(token: string, name: string, changes: PrincipalChanges): Promise<PrincipalView> {
    const caller = await this.#ctx.auth.authorizeOperation(token, 'principals.update');
    const row = await this.#ctx.auth.principalOrThrow(name);
    if (changes.disabled === true && caller.principal.principalId === row.principalId) refuseSelf('disable');
    await this.#checkDisplayName(changes.displayName);
    if (changes.roles !== undefined) await this.#checkRoles(changes.roles);
    if (changes.disabled !== undefined && typeof changes.disabled !== 'boolean') throw new BadRequestError('disabled: must be a boolean');
    if (changes.delegates !== undefined) await this.#checkDelegates(row, changes.delegates);
    const updated: PrincipalRow = {
      ...row,
      ...(changes.displayName === undefined ? {} : { displayName: changes.displayName }),
      ...(changes.disabled === undefined ? {} : { disabled: changes.disabled }),
      ...(changes.roles === undefined ? {} : { roles: [...new Set(changes.roles)] }),
      ...(changes.delegates === undefined ? {} : { delegates: [...new Set(changes.delegates)] }),
    };
    await refuseLosingLastAdmin(this.#ctx.store, { kind: 'put', row: updated });
    await this.#ctx.store.putPrincipal(updated);
    if (updated.disabled) {
      await this.#ctx.store.deleteTokensOf(row.principalId);
      await this.#ctx.store.deleteTokensActingFor(row.name);
    }
    await endBrokenDelegations(this.#ctx.store);
    return principalView(updated);
  }

  /**
   * Operation 25: the principal, its tokens, its memberships and its enrolled certificates go; not
   * oneself, and not the last administrator or the group that makes it one (last-admin.ts).
   */
  async remove(token: string, name: string): Promise<void> {
    const caller = await this.#ctx.auth.authorizeOperation(token, 'principals.delete');
    const row = await this.#ctx.auth.principalOrThrow(name);
    if (caller.principal.principalId === row.principalId) refuseSelf('delete');
    const store = this.#ctx.store;
    await refuseLosingLastAdmin(store, { kind: 'delete', row });
    await store.deleteTokensOf(row.principalId);
    await store.deleteTokensActingFor(row.name);
    await store.deleteMembershipsOf(row.principalId);
    for (const cert of await store.certificates('enrolled'))
      if (cert.principalId === row.principalId) await store.deleteCertificate(cert.id);
    await store.deletePrincipal(row.principalId);
    await endBrokenDelegations(store);
  }

  /**
   * Operation 26: admin for anyone, a user or service for itself. Groups have no password. An own
   * change proves the current password (docs/spec.md §4.20); any change ends the principal's other tokens,
   * and every token a service delegated: those stand on the credential that just changed.
   */
  async setPassword(token: string, name: string, verifier: PasswordVerifier, currentProof?: string): Promise<void> {
    const caller = await this.#ctx.auth.authorizeOwnOr(token, name, 'principals.password.own', 'principals.password');
    const row = await this.#ctx.auth.principalOrThrow(name);
    if (row.kind === 'group') throw new BadRequestError('password: a group has no password');
    const own = caller.principal.principalId === row.principalId;
    if (own) await this.#consumeCurrentProof(token, row, currentProof);
    const srp = decodeVerifier(verifier);
    await this.#ctx.store.putPrincipal({ ...row, srp });
    await this.#ctx.store.deleteTokensOf(row.principalId);
    await this.#ctx.store.deleteTokensActingFor(row.name);
    if (own) await this.#ctx.store.putToken(caller.token);
  }

  /** The token of a fresh SRP login of the same principal, other than the caller's; single use. */
  async #consumeCurrentProof(token: string, row: PrincipalRow, currentProof: string | undefined): Promise<void> {
    const refuse = () => new RoleDeniedError('principals.password.own: the current password was not proven');
    if (currentProof === undefined || currentProof === token) throw refuse();
    let proof: TokenContext;
    try {
      proof = await this.#ctx.auth.authenticate(currentProof);
    } catch {
      throw refuse();
    }
    await this.#ctx.store.deleteToken(proof.token.tokenHash);
    const fresh = proof.token.issuedAt >= this.#ctx.now() - (await this.#ctx.parameters.value('loginHandshakeSeconds')) * 1000;
    if (proof.principal.principalId !== row.principalId || proof.token.scope !== undefined || proof.token.actingFor !== undefined || !fresh)
      throw refuse();
  }

  /** Operation 27: the groups the principal belongs to (the principal itself may read them too). */
  async groups(token: string, name: string): Promise<ListResult<PrincipalView>> {
    await this.#ctx.auth.authorizeOwnOr(token, name, 'principals.read.own', 'principals.groups');
    const row = await this.#ctx.auth.principalOrThrow(name);
    return { items: await principalViews(this.#ctx.store, await this.#ctx.store.groupIdsOf(row.principalId)), complete: true };
  }

  async #checkDisplayName(displayName: unknown): Promise<void> {
    if (displayName === undefined) return;
    if (typeof displayName !== 'string' || displayName.length === 0 || displayName.length > DISPLAY_NAME_MAX) {
      throw new BadRequestError(`displayName: a string of 1 to ${DISPLAY_NAME_MAX} characters`);
    }
  }

  /** docs/spec.md §4.18 item 1: only a service has a delegation list, and it names existing principals or groups. */
  async #checkDelegates(row: PrincipalRow, delegates: readonly string[]): Promise<void> {
    if (row.kind !== 'service') throw new BadRequestError('delegates: only a service principal delegates');
    let unknown: unknown;
    for (const name of delegates) {
      if (typeof name !== 'string' || (await this.#ctx.store.principalByName(name)) === undefined) {
        unknown = name;
        break;
      }
    }
    if (unknown !== undefined) throw new BadRequestError(`delegates: no such principal ${String(unknown)}`);
  }

  async #checkRoles(roles: readonly string[]): Promise<void> {
    let unknown: unknown;
    for (const role of roles) {
      if (typeof role !== 'string' || (await roleOperations(this.#ctx.store, role)) === undefined) {
        unknown = role;
        break;
      }
    }
    if (unknown !== undefined) throw new BadRequestError(`roles: no such role ${String(unknown)}`);
  }
}

/** Disabling or deleting oneself would end the very session asking, and may leave no administrator. */
function refuseSelf(action: string): never {
  const reason = `a principal cannot ${action} itself`;
  throw new KeyServerError('CONFLICT', reason, { reason });
}

/** An SRP-6a verifier record as sent: a 16..64-byte salt and a verifier 1 < v < N (RFC 5054 group). */
function decodeVerifier(record: PasswordVerifier): SrpVerifier {
  const refuse = () => new BadRequestError('verifier: not an SRP-6a verifier record');
  if (typeof record !== 'object' || record === null || !isStandardBase64(record.salt) || !isStandardBase64(record.verifier)) throw refuse();
  const salt = Buffer.from(record.salt, 'base64');
  const verifier = Buffer.from(record.verifier, 'base64');
  if (salt.length < 16 || salt.length > 64 || verifier.length !== SRP_GROUP_2048.byteLength) throw refuse();
  const v = BigInt(`0x${verifier.toString('hex')}`);
  if (v <= 1n || v >= SRP_GROUP_2048.N) throw refuse();
  return { salt, verifier };
}
