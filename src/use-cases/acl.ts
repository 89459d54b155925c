import type { Right } from '../wire/acl.js';
import type { AclEntry, AclWrite, KeyAcl, KeyServer } from '../ports/key-server.port.js';
import { ConcurrentChangeError, NotSavedError, sameValue, verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

export { ConcurrentChangeError, NotSavedError, NotVerifiedError } from './read-back.js';

/**
 * A key's ACL (api-surface.md operations 17-20, and the seven-operation grant and revoke): every
 * change is verified by reading the ACL back. The read-back is judged against the write's own effect:
 * shown -> success; not shown, at a newer revision than the one the write produced -> another writer
 * overtook it (CONFLICT `CONCURRENT_CHANGE`); not shown at the write's own revision (or an older
 * one) -> the write did not take (NOT_SAVED / NOT_VERIFIED, seed 001 §7.4).
 */
export class AclUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  /** The key's ACL; owner only. */
  read(caller: Caller, ttag: string): Promise<KeyAcl> {
    return withConnection(this.#keyServer, caller, (connection) => connection.readAcl(ttag));
  }

  /** Sets (replaces) `grantee`'s rights on the key; owner only. Answers the entry as read back. */
  grant(caller: Caller, ttag: string, grantee: string, rights: readonly Right[]): Promise<AclEntry> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const write = await connection.grant(ttag, grantee, rights);
      const acl = await connection.readAcl(ttag);
      const entry = acl.entries.find((e) => e.principal.principalId === write.grantee.principalId);
      const what = `grant to ${grantee}`;
      if (entry !== undefined && sameValue(entry.rights, rights)) return entry;
      overtaken(what, write, acl);
      return verifyWrite(what, rights, (e: AclEntry) => e.rights, entry);
    });
  }

  /** Removes `grantee` from the key's ACL; owner only. The entry must be gone on read-back. */
  revoke(caller: Caller, ttag: string, grantee: string): Promise<void> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const write = await connection.revoke(ttag, grantee);
      const acl = await connection.readAcl(ttag);
      if (!acl.entries.some((e) => e.principal.user === grantee)) return;
      const what = `revocation of ${grantee}`;
      overtaken(what, write, acl);
      throw new NotSavedError(`${what} did not take effect`);
    });
  }

  /** The caller's effective rights on the key. */
  access(caller: Caller, ttag: string): Promise<readonly Right[]> {
    return withConnection(this.#keyServer, caller, (connection) => connection.accessRights(ttag));
  }
}

/** A read-back that misses the write's effect at a newer revision than the write's: a later writer overtook it. */
function overtaken(what: string, write: AclWrite, acl: KeyAcl): void {
  if (acl.revision > write.revision) {
    throw new ConcurrentChangeError(`${what} took effect, and another write changed the ACL after it`);
  }
}
