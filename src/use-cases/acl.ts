import { ConcurrentChangeError, NotSavedError } from '../domain/errors/index.js';
import type { AclEntry, AclWrite, KeyAcl, KeyServer } from '../ports/key-server.port.js';
import type { GrantConditions, Right } from '../wire/acl.js';
import type { Resolved } from '../wire/alias.js';
import { sameValue, verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

export { ConcurrentChangeError, NotSavedError, NotVerifiedError } from '../domain/errors/index.js';

/**
 * A key's ACL (docs/spec.md §4.7, and the seven-operation grant and revoke, §2.3 item 4): every
 * change is verified by reading the ACL back. The read-back is judged against the write's own effect:
 * shown -> success; not shown, at a newer revision than the one the write produced -> another writer
 * overtook it (CONFLICT `CONCURRENT_CHANGE`); not shown at the write's own revision (or an older
 * one) -> the write did not take (NOT_SAVED / NOT_VERIFIED, docs/spec.md §4.1 item 3).
 */
export class AclUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  /**
   * Sets (replaces) `grantee`'s rights and conditions on the key; owner only: without `conditions` the
   * entry has none (docs/spec.md §4.5b item 4). Answers the entry as read back, or as written when
   * another writer overtook it and the surface counts that a success (`overtaken`). The read-back
   * compares the rights and the conditions.
   */
  grant(
    caller: Caller,
    ttag: string,
    grantee: string,
    rights: readonly Right[],
    overtaken: Overtaken = 'conflict',
    conditions?: GrantConditions,
  ): Promise<AclEntry & Resolved> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const write = await connection.call('grant', {
        ttag,
        principal: grantee,
        rights,
        ...(conditions === undefined ? {} : { conditions }),
      });
      // A key named by alias is read back by the ttag the grant resolved it to: a move in between changes nothing here.
      const resolved = write.resolved === undefined ? {} : { resolved: write.resolved };
      const acl = await connection.call('readAcl', { ttag: write.resolved ?? ttag });
      const entry = acl.entries.find((e) => e.principal.principalId === write.grantee.principalId);
      const what = `grant to ${grantee}`;
      const asked = { rights, conditions: conditions ?? null };
      const written = (e: AclEntry) => ({ rights: e.rights, conditions: e.conditions ?? null });
      if (entry !== undefined && sameValue(written(entry), asked)) return { ...entry, ...resolved };
      const answer = { principal: write.grantee, rights, ...(conditions === undefined ? {} : { conditions }) };
      if (wasOvertaken(what, write, acl, overtaken)) return { ...answer, ...resolved };
      return { ...verifyWrite(what, asked, written, entry), ...resolved };
    });
  }

  /** Removes `grantee` from the key's ACL; owner only. The entry must be gone on read-back, unless another writer overtook the revocation. */
  revoke(caller: Caller, ttag: string, grantee: string, overtaken: Overtaken = 'conflict'): Promise<Resolved> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const write = await connection.call('revoke', { ttag, principal: grantee });
      const resolved = write.resolved === undefined ? {} : { resolved: write.resolved };
      const acl = await connection.call('readAcl', { ttag: write.resolved ?? ttag });
      if (!acl.entries.some((e) => e.principal.user === grantee)) return resolved;
      const what = `revocation of ${grantee}`;
      if (wasOvertaken(what, write, acl, overtaken)) return resolved;
      throw new NotSavedError(`${what} did not take effect`);
    });
  }
}

/**
 * How a surface answers a write that took effect and was then overtaken by another writer: the /api
 * surface says so (409 CONFLICT `CONCURRENT_CHANGE`, docs/spec.md §4.1 item 3); the
 * seven-operation surface has no 409 for grant and revoke (docs/spec.md §2.5, §12 item 2), and the write did take
 * effect, so there it is the success it was.
 */
export type Overtaken = 'conflict' | 'applied';

/**
 * True when a read-back that misses the write's effect is at a newer revision than the write's (a later
 * writer overtook it) and the surface counts that `applied`; throws CONCURRENT_CHANGE when it counts it
 * a `conflict`. False when the write itself did not take.
 */
function wasOvertaken(what: string, write: AclWrite, acl: KeyAcl, overtaken: Overtaken): boolean {
  if (acl.revision <= write.revision) return false;
  if (overtaken === 'applied') return true;
  throw new ConcurrentChangeError(`${what} took effect, and another write changed the ACL after it`);
}
