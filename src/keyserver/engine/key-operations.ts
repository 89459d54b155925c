import { GRANT_RIGHTS, type GrantConditions, isRight, RIGHTS, type Right } from '../../wire/acl.js';
import { ALIAS_PREFIX } from '../../wire/alias.js';
import type { IdempotencyClaim } from '../../wire/crypto-messages.js';
import type { EncryptionContext } from '../../wire/encryption-context.js';
import { grantConditionsFault, ownMembers } from '../../wire/grant-conditions.js';
import type { Identity } from '../../wire/identity.js';
import { nidForKeyLength } from '../../wire/key-length.js';
import type { SigningKeyType } from '../../wire/key-type.js';
import type { KeyVersionView, KeyView, NewKey } from '../../wire/key-view.js';
import type { ListResult } from '../../wire/list-result.js';
import { conditionalGrants, effectiveRights } from '../model/evaluate-access.js';
import { BadRequestError, KeyExpiredError, KeyServerError, NotFoundError, OutOfScopeError } from '../model/key-server-errors.js';
import { generateSigningKey } from '../model/signing-keys.js';
import type { EngineContext } from './engine-context.js';
import type { KeyRow } from './engine-model.js';
import { aclOf, identityOf, isExpired, keyView, requesterOf, requireLiveKey, requireUsableKey } from './engine-views.js';
import { forgetIdempotencyRecord, idempotent, noteReplayAnswered } from './idempotent.js';
import { requireExportableKind } from './key-type-fit.js';
import { noteKeyUse, resolvedOf } from './key-use.js';
import { addKeyVersion, newestVersion, usableVersion, versionsPage } from './key-versions.js';
import { checkedRotationPeriod } from './rotation-schedule.js';
import { keyKindOf } from './signing-key-kind.js';

const TTAG_BYTES = 24;
const LABEL_MAX = 256;

/** What a rotation's idempotency record keeps: the version it made (a replay rebuilds the view). */
type RotationAnswer = { readonly ttag: string; readonly version: number } | KeyView;

/** One ACL entry as the engine answers it: `conditions` only on an entry that has them (docs/spec.md §4.5b item 4). */
export interface AclEntryView {
  readonly principal: Identity;
  readonly rights: Right[];
  readonly conditions?: GrantConditions;
}

/**
 * The caller's access (operation 20): `rights` held with no condition, and `conditional`, one item per
 * conditioned entry of the caller's, only when there is one (docs/spec.md §4.5b item 4).
 */
export interface AccessView {
  readonly rights: Right[];
  readonly conditional?: { rights: Right[]; context: EncryptionContext }[];
  readonly resolved?: string;
}

/** A key's ACL as the engine answers it, with its current revision. */
export interface AclView {
  readonly owner: Identity;
  readonly entries: AclEntryView[];
  readonly revision: number;
}

/**
 * Key lifecycle and key ACLs (docs/spec.md §4.6, §4.7, and the seven-operation generate,
 * export, grant, revoke, §2.3). Order of checks: role, then the key's ACL, then a scoped token's list.
 */
export class KeyOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * Creates a key owned by the caller (operation 13): 16, 24 or 32 bytes, an optional label, expiry
   * and rotation period. Under an Idempotency-Key, a retry answers the first request's key
   * (idempotent.ts) with `replayed` set: the retry created nothing, so it has nothing to undo. A replay
   * never answers a key in a state the first answer did not have: once that key has expired, the
   * replay is KEY_EXPIRED (docs/spec.md §4.22 item 7).
   */
  async generate(token: string, options: NewKey, idempotency?: IdempotencyClaim): Promise<{ ttag: string; replayed: boolean }> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.create');
    ctx.auth.requireScope(caller, undefined, 'manage');
    const owner = caller.principal.principalId;
    const { answer, replayed } = await idempotent(ctx, owner, 'generateKey', idempotency, () => this.#create(owner, options));
    if (replayed) {
      const key = await ctx.auth.keyOrThrow(answer.ttag);
      // Nor one scheduled for deletion, or deleted, since (docs/spec.md §4.23 item 5).
      requireLiveKey(key);
      if (isExpired(key, ctx.now()))
        throw new KeyExpiredError('the key this Idempotency-Key created has expired since; a new Idempotency-Key creates another');
      // In this unit of the store: an undo of the first request now keeps the key (`withdraw`).
      await noteReplayAnswered(ctx, owner, idempotency!.key);
    }
    return { ttag: answer.ttag, replayed };
  }

  /**
   * Undoes the caller's own creation whose audit record could not be stored (docs/spec.md §9.2): the
   * key is expired, and the caller's idempotency record under `idempotencyKey` that answered it is
   * forgotten, so a retry creates a fresh key instead of replaying an expired one. When that record
   * has answered a replay already, the key is kept as it is, record and all: the retry was answered
   * this key active, and a replay never answers a key in a state the first answer did not have
   * (docs/spec.md §4.22 item 7); the replay's own record names it. The record is read and the key
   * expired in one unit of the store, so a replay lands wholly before or wholly after the undo. Needs
   * what the creation needed (`keys.create`), and the key must be the caller's.
   */
  async withdraw(token: string, ttag: string, idempotencyKey?: string): Promise<void> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.create');
    ctx.auth.requireScope(caller, undefined, 'manage');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, 'withdraw');
    if (idempotencyKey !== undefined) {
      const made = (answer: unknown) => typeof answer === 'object' && answer !== null && (answer as { ttag?: unknown }).ttag === ttag;
      const record = await forgetIdempotencyRecord(ctx, caller.principal.principalId, idempotencyKey, 'generateKey', made);
      if (record === 'replayed') return;
    }
    if (!key.expired) await ctx.store.putKey({ ...key, expired: true });
  }

  async #create(owner: string, options: NewKey): Promise<{ ttag: string }> {
    const ctx = this.#ctx;
    const kind = keyKindOf(options);
    if (options.label !== undefined && (typeof options.label !== 'string' || options.label.length > LABEL_MAX)) {
      throw new BadRequestError(`label: a string of at most ${LABEL_MAX} characters`);
    }
    if (options.expiresAt !== undefined && !(Number.isSafeInteger(options.expiresAt) && options.expiresAt > ctx.now())) {
      throw new BadRequestError('expiresAt: must be in the future');
    }
    const row: KeyRow = {
      ttag: await this.#freshTtag(),
      nid: kind.signing === undefined ? nidForKeyLength(kind.keyLen, KeyServerError) : 0,
      material: kind.signing === undefined ? Buffer.from(ctx.random.bytes(kind.keyLen)) : await generateSigningKey(kind.signing.type),
      owner,
      laterVersions: [],
      minVersion: 1,
      acl: new Map(),
      aclRevision: 0,
      createdAt: ctx.now(),
      expired: false,
      disabled: false,
      tags: {},
      ...(options.label === undefined ? {} : { label: options.label }),
      ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt }),
      ...(options.rotationPeriod === undefined ? {} : { rotationPeriod: checkedRotationPeriod(options.rotationPeriod) }),
      ...(kind.signing === undefined ? {} : { signing: kind.signing }),
    };
    await ctx.store.putKey(row);
    return { ttag: row.ttag };
  }

  /**
   * A ttag no stored key holds, a tombstone's included (docs/spec.md §4.23 item 5: a deleted key's ttag
   * never names another key), drawn again on the (improbable) meeting with one.
   */
  async #freshTtag(): Promise<string> {
    const ctx = this.#ctx;
    for (let draw = 0; draw < 8; draw++) {
      const ttag = newTtag(ctx);
      if ((await ctx.store.key(ttag)) === undefined) return ttag;
    }
    throw new KeyServerError('INTERNAL', 'the random source keeps answering handles of stored keys');
  }

  /** The key view (operation 14): needs `read`. Its `ttag` names the key an alias resolved to. */
  async view(token: string, ttag: string): Promise<KeyView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.read');
    return await keyView(await ctx.auth.authorizeKey(caller, ttag, 'read'), ctx.store, ctx.now());
  }

  /**
   * A page of the key's versions, newest first (docs/spec.md §4.22 item 10): needs `read`, as the view.
   * The key is read once, with its versions, so a page is one call and one read of the store.
   */
  async versions(
    token: string,
    ttag: string,
    query: { limit: number; cursor?: string | undefined },
  ): Promise<ListResult<KeyVersionView> & { resolved?: string }> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.versions');
    const key = await ctx.auth.authorizeKey(caller, ttag, 'read');
    return { ...versionsPage(key, query), ...resolvedOf(ttag, key) };
  }

  /**
   * Adds version n+1 of the same length, from the engine's random source: the owner, or a holder of the
   * right `rotate`. A key pending deletion is KEY_PENDING_DELETION, a tombstone KEY_DELETED
   * (docs/spec.md §4.23 item 5), an expired key KEY_EXPIRED. Answers the key view after the rotation.
   */
  async rotate(token: string, ttag: string, idempotency?: IdempotencyClaim): Promise<KeyView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.rotate');
    const key = await ctx.auth.authorizeKey(caller, ttag, 'rotate');
    // Under an Idempotency-Key a retry adds no version (idempotent.ts). The record keeps a compact first
    // answer, the version made, and a replay rebuilds the view from the key as of that version.
    const { answer, replayed } = await idempotent<RotationAnswer>(ctx, caller.principal.principalId, 'rotateKey', idempotency, async () => {
      requireLiveKey(key);
      if (isExpired(key, ctx.now())) throw new KeyExpiredError();
      return { ttag: key.ttag, version: newestVersion(await addKeyVersion(ctx, key)) };
    });
    // A record written before the compact form holds the whole view: answered as it is.
    if ('versions' in answer) return answer;
    const current = await ctx.auth.keyOrThrow(key.ttag);
    if (replayed) requireLiveKey(current);
    if (replayed && isExpired(current, ctx.now())) throw new KeyExpiredError('the key this Idempotency-Key rotated has expired since');
    return await keyView(current, ctx.store, ctx.now(), answer.version);
  }

  /**
   * Raises the key's minimum version (owner only): versions below it are retired. The minimum never goes
   * down (a lower one is CONFLICT) and never passes the newest version (BAD_REQUEST); the current one
   * again changes nothing.
   */
  async setMinVersion(token: string, ttag: string, minVersion: number): Promise<KeyView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.min-version');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, 'set the minimum version');
    ctx.auth.requireScope(caller, ttag, 'manage');
    if (!Number.isSafeInteger(minVersion)) throw new BadRequestError('minVersion: must be an integer');
    if (minVersion < key.minVersion) {
      throw new KeyServerError('CONFLICT', `minVersion: the minimum version is ${key.minVersion} and never goes down`, {
        reason: 'MIN_VERSION_DOWN',
      });
    }
    const newest = newestVersion(key);
    if (minVersion > newest) throw new BadRequestError(`minVersion: the newest version is ${newest}`);
    if (minVersion === key.minVersion) return await keyView(key, ctx.store, ctx.now());
    const raised: KeyRow = { ...key, minVersion };
    await ctx.store.putKey(raised);
    return await keyView(raised, ctx.store, ctx.now());
  }

  /**
   * The raw data key of one version (the newest when none is named) for a caller holding `export`; an
   * expired key is KEY_EXPIRED, a disabled one KEY_DISABLED, a version below the minimum KEY_VERSION_RETIRED.
   * A signing key's version is its PKCS#8, answered with its `type`, only when it was made `exportable`
   * and the caller did not ask for an aes key alone (`aesOnly`, the root surface): else
   * KEY_TYPE_MISMATCH, its material never read (docs/spec.md §4.25 item 1 "Export").
   */
  async exportKey(
    token: string,
    ttag: string,
    version?: number,
    aesOnly = false,
  ): Promise<{ nid: number; key: Buffer; version: number; type?: SigningKeyType; resolved?: string }> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.export');
    const key = await ctx.auth.authorizeKey(caller, ttag, 'export');
    requireUsableKey(key, ctx.now());
    requireExportableKind(key, aesOnly);
    const chosen = usableVersion(key, version ?? newestVersion(key));
    await noteKeyUse(ctx, key, 'export');
    const type = key.signing === undefined ? {} : { type: key.signing.type };
    return { nid: key.nid, key: Buffer.from(chosen.material), version: chosen.version, ...type, ...resolvedOf(ttag, key) };
  }

  /** Expires the key for good (operation 16); owner only. Expiring an expired key changes nothing. */
  async expire(token: string, ttag: string): Promise<KeyView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.expire');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, 'expire');
    ctx.auth.requireScope(caller, ttag, 'manage');
    const expired: KeyRow = { ...key, expired: true };
    await ctx.store.putKey(expired);
    return await keyView(expired, ctx.store, ctx.now());
  }

  /**
   * Disables the key (docs/spec.md §4.6); owner only, as expire. Disabling a disabled key changes nothing.
   * An expired key is KEY_EXPIRED: it has no state left to change; one pending deletion is
   * KEY_PENDING_DELETION, a tombstone KEY_DELETED (docs/spec.md §4.23 item 5).
   */
  async disable(token: string, ttag: string): Promise<KeyView> {
    return await this.#setDisabled(token, ttag, true);
  }

  /** Enables a disabled key again (docs/spec.md §4.6); owner only. Enabling an active key changes nothing. */
  async enable(token: string, ttag: string): Promise<KeyView> {
    return await this.#setDisabled(token, ttag, false);
  }

  /** The owner's check and the state's write, in the one unit of the store the operation runs in. */
  async #setDisabled(token: string, ttag: string, disabled: boolean): Promise<KeyView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.state');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, disabled ? 'disable' : 'enable');
    ctx.auth.requireScope(caller, ttag, 'manage');
    requireLiveKey(key);
    if (isExpired(key, ctx.now())) throw new KeyExpiredError();
    if (key.disabled === disabled) return await keyView(key, ctx.store, ctx.now());
    const changed: KeyRow = { ...key, disabled };
    await ctx.store.putKey(changed);
    return await keyView(changed, ctx.store, ctx.now());
  }

  /** The key's access list (operation 17); owner only. Entries of deleted principals are gone. */
  async readAcl(token: string, ttag: string): Promise<AclView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'acl.read');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, 'read acl');
    ctx.auth.requireScope(caller, ttag, 'manage');
    const entries: AclEntryView[] = [];
    for (const [principalId, rights] of key.acl) {
      const row = await ctx.store.principalById(principalId);
      const conditions = key.aclConditions?.get(principalId);
      if (row) entries.push({ principal: identityOf(row), rights: [...rights], ...(conditions === undefined ? {} : { conditions }) });
    }
    entries.sort((a, b) => a.principal.user.localeCompare(b.principal.user));
    return { owner: identityOf(caller.principal), entries, revision: key.aclRevision, ...resolvedOf(ttag, key) };
  }

  /**
   * Sets (replaces) a principal's rights on the key (operation 18, seven-operation grant); owner only.
   * The entry's conditions are replaced with it: given, they are set; absent, the entry has none
   * (docs/spec.md §4.5b item 4; the root surface's grant passes none). Answers the grantee and the ACL
   * revision the write produced.
   */
  async grant(
    token: string,
    ttag: string,
    principal: string,
    rights: readonly Right[] = GRANT_RIGHTS,
    conditions?: GrantConditions,
  ): Promise<{ grantee: Identity; revision: number; resolved?: string }> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'acl.write');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, 'grant');
    ctx.auth.requireScope(caller, ttag, 'manage');
    const grantee = await ctx.store.principalByName(principal);
    if (!grantee) throw new NotFoundError(`no such principal: ${principal}`);
    if (grantee.principalId === key.owner) throw new BadRequestError('the owner already holds every right');
    if (rights.length === 0) throw new BadRequestError('rights: at least one right is required');
    const unknown = rights.find((right) => !isRight(right));
    if (unknown !== undefined) throw new BadRequestError(`rights: unknown right ${String(unknown)}`);
    const fault = conditions === undefined ? undefined : grantConditionsFault(conditions);
    if (fault !== undefined) throw new BadRequestError(`${['conditions', ...fault.path].join('.')}: ${fault.fault}`);
    const acl = new Map(key.acl);
    acl.set(
      grantee.principalId,
      RIGHTS.filter((right) => rights.includes(right)),
    );
    const aclConditions = new Map(key.aclConditions);
    if (conditions === undefined) aclConditions.delete(grantee.principalId);
    else aclConditions.set(grantee.principalId, { context: ownMembers(conditions.context) });
    const revision = key.aclRevision + 1;
    await ctx.store.putKey({ ...key, acl, aclConditions, aclRevision: revision });
    return { grantee: identityOf(grantee), revision, ...resolvedOf(ttag, key) };
  }

  /**
   * Removes a principal's entry (operation 19, seven-operation revoke); owner only. Idempotent, yet
   * every revoke applied is a write of its own: it answers the ACL revision it produced.
   */
  async revoke(token: string, ttag: string, principal: string): Promise<{ revision: number; resolved?: string }> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'acl.write');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, 'revoke');
    ctx.auth.requireScope(caller, ttag, 'manage');
    const grantee = await ctx.store.principalByName(principal);
    if (!grantee) throw new NotFoundError(`no such principal: ${principal}`);
    const acl = new Map(key.acl);
    acl.delete(grantee.principalId);
    const aclConditions = new Map(key.aclConditions);
    aclConditions.delete(grantee.principalId);
    const revision = key.aclRevision + 1;
    await ctx.store.putKey({ ...key, acl, aclConditions, aclRevision: revision });
    return { revision, ...resolvedOf(ttag, key) };
  }

  /**
   * The caller's effective rights on the key (operation 20): its own entry, its groups' entries, or
   * ownership; a scoped token sees only what its scope leaves of them, conditioned ones too.
   */
  async access(token: string, ttag: string): Promise<AccessView> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'acl.access');
    const key = await ctx.auth.keyOrThrow(ttag);
    const scoped = caller.token.scope?.[key.ttag];
    if (caller.token.scope !== undefined && scoped === undefined) throw new OutOfScopeError('the session is scoped to other keys');
    const requester = await requesterOf(caller.principal, ctx.store);
    const leftOf = (rights: Right[]) => (scoped === undefined ? rights : rights.filter((right) => scoped.includes(right)));
    const conditional = conditionalGrants(aclOf(key), requester).flatMap((grant) => {
      const rights = leftOf(grant.rights);
      return rights.length === 0 ? [] : [{ rights, context: grant.context }];
    });
    return {
      rights: leftOf(effectiveRights(aclOf(key), requester)),
      ...(conditional.length === 0 ? {} : { conditional }),
      ...resolvedOf(ttag, key),
    };
  }
}

/**
 * A fresh ttag from the engine's random source: never one whose standard base64 begins with `alias/`,
 * which /api reads as an alias (docs/spec.md §4.23 item 3); such a draw (one in 2^36) is drawn again.
 */
export function newTtag(ctx: Pick<EngineContext, 'random'>): string {
  for (;;) {
    const ttag = Buffer.from(ctx.random.bytes(TTAG_BYTES)).toString('base64');
    if (!ttag.startsWith(ALIAS_PREFIX)) return ttag;
  }
}
