import { GRANT_RIGHTS, isRight, RIGHTS, type Right } from '../../domain/acl/acl.js';
import { OutOfScopeError } from '../../domain/acl/acl.errors.js';
import { effectiveRights } from '../../domain/acl/evaluate-access.js';
import { BadRequestError, NotFoundError } from '../../domain/errors/index.js';
import type { Identity } from '../../domain/identity/identity.js';
import { KeyExpiredError } from '../../domain/key/key.errors.js';
import type { KeyView, NewKey } from '../../domain/key/key-view.js';
import { isKeyLength, nidForKeyLength } from '../../domain/keywrap/key-length.js';
import type { KeyServerEngine } from './engine.js';
import type { KeyRow } from './engine-model.js';
import { aclOf, identityOf, isExpired, keyView, requesterOf } from './engine-views.js';

const TTAG_BYTES = 24;
const LABEL_MAX = 256;

/** One ACL entry as the engine answers it. */
export interface AclEntryView {
  readonly principal: Identity;
  readonly rights: Right[];
}

/**
 * Key lifecycle and key ACLs (api-surface.md operations 13-20, and the seven-operation generate,
 * export, grant, revoke). Order of checks: role, then the key's ACL, then a scoped token's list.
 */
export class KeyOperations {
  readonly #engine: KeyServerEngine;

  constructor(engine: KeyServerEngine) {
    this.#engine = engine;
  }

  /** Creates a key owned by the caller (operation 13): 16, 24 or 32 bytes, an optional label and expiry. */
  generate(token: string, options: NewKey): { ttag: string } {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, 'keys.create');
    engine.requireScope(caller, undefined, 'manage');
    if (!isKeyLength(options.keyLen)) throw new BadRequestError('keyLen: must be 16, 24 or 32');
    if (options.label !== undefined && (typeof options.label !== 'string' || options.label.length > LABEL_MAX)) {
      throw new BadRequestError(`label: a string of at most ${LABEL_MAX} characters`);
    }
    if (options.expiresAt !== undefined && !(Number.isSafeInteger(options.expiresAt) && options.expiresAt > engine.now())) {
      throw new BadRequestError('expiresAt: must be in the future');
    }
    const row: KeyRow = {
      ttag: Buffer.from(engine.random.bytes(TTAG_BYTES)).toString('base64'),
      nid: nidForKeyLength(options.keyLen),
      material: Buffer.from(engine.random.bytes(options.keyLen)),
      owner: caller.principal.principalId,
      acl: new Map(),
      createdAt: engine.now(),
      expired: false,
      ...(options.label === undefined ? {} : { label: options.label }),
      ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt }),
    };
    engine.store.putKey(row);
    return { ttag: row.ttag };
  }

  /** The key view (operation 14): needs `read`. */
  view(token: string, ttag: string): KeyView {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, 'keys.read');
    return keyView(engine.authorizeKey(caller, ttag, 'read'), engine.store, engine.now());
  }

  /** The raw data key for a caller holding `export`; an expired key is KEY_EXPIRED. */
  exportKey(token: string, ttag: string): { nid: number; key: Buffer } {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, 'keys.export');
    const key = engine.authorizeKey(caller, ttag, 'export');
    if (isExpired(key, engine.now())) throw new KeyExpiredError();
    return { nid: key.nid, key: Buffer.from(key.material) };
  }

  /** Expires the key for good (operation 16); owner only. Expiring an expired key changes nothing. */
  expire(token: string, ttag: string): KeyView {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, 'keys.expire');
    const key = engine.ownedKey(caller.principal, ttag, 'expire');
    engine.requireScope(caller, ttag, 'manage');
    const expired: KeyRow = { ...key, expired: true };
    engine.store.putKey(expired);
    return keyView(expired, engine.store, engine.now());
  }

  /** The key's access list (operation 17); owner only. Entries of deleted principals are gone. */
  readAcl(token: string, ttag: string): { owner: Identity; entries: AclEntryView[] } {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, 'acl.read');
    const key = engine.ownedKey(caller.principal, ttag, 'read acl');
    engine.requireScope(caller, ttag, 'manage');
    const entries: AclEntryView[] = [];
    for (const [principalId, rights] of key.acl) {
      const row = engine.store.principalById(principalId);
      if (row) entries.push({ principal: identityOf(row), rights: [...rights] });
    }
    entries.sort((a, b) => a.principal.user.localeCompare(b.principal.user));
    return { owner: identityOf(caller.principal), entries };
  }

  /** Sets (replaces) a principal's rights on the key (operation 18, seven-operation grant); owner only. */
  grant(token: string, ttag: string, principal: string, rights: readonly Right[] = GRANT_RIGHTS): Identity {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, 'acl.write');
    const key = engine.ownedKey(caller.principal, ttag, 'grant');
    engine.requireScope(caller, ttag, 'manage');
    const grantee = engine.store.principalByName(principal);
    if (!grantee) throw new NotFoundError(`no such principal: ${principal}`);
    if (grantee.principalId === key.owner) throw new BadRequestError('the owner already holds every right');
    if (rights.length === 0) throw new BadRequestError('rights: at least one right is required');
    const unknown = rights.find((right) => !isRight(right));
    if (unknown !== undefined) throw new BadRequestError(`rights: unknown right ${String(unknown)}`);
    const acl = new Map(key.acl);
    acl.set(
      grantee.principalId,
      RIGHTS.filter((right) => rights.includes(right)),
    );
    engine.store.putKey({ ...key, acl });
    return identityOf(grantee);
  }

  /** Removes a principal's entry (operation 19, seven-operation revoke); owner only. Idempotent. */
  revoke(token: string, ttag: string, principal: string): void {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, 'acl.write');
    const key = engine.ownedKey(caller.principal, ttag, 'revoke');
    engine.requireScope(caller, ttag, 'manage');
    const grantee = engine.store.principalByName(principal);
    if (!grantee) throw new NotFoundError(`no such principal: ${principal}`);
    const acl = new Map(key.acl);
    acl.delete(grantee.principalId);
    engine.store.putKey({ ...key, acl });
  }

  /**
   * The caller's effective rights on the key (operation 20): its own entry, its groups' entries, or
   * ownership; a scoped token sees only what its scope leaves of them.
   */
  access(token: string, ttag: string): { rights: Right[] } {
    const engine = this.#engine;
    const caller = engine.authenticate(token);
    engine.requireOperation(caller, 'acl.access');
    const key = engine.keyOrThrow(ttag);
    const scope = caller.token.scope;
    if (scope !== undefined && scope[ttag] === undefined) throw new OutOfScopeError('the session is scoped to other keys');
    const held = effectiveRights(aclOf(key), requesterOf(caller.principal, engine.store));
    return { rights: scope === undefined ? held : held.filter((right) => scope[ttag]!.includes(right)) };
  }
}
