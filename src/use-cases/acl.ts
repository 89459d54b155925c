import type { Right } from '../wire/acl.js';
import type { AclEntry, KeyAcl, KeyServer } from '../ports/key-server.port.js';
import { NotSavedError, verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

export { NotSavedError, NotVerifiedError } from './read-back.js';

/**
 * A key's ACL (api-surface.md operations 17-20, and the seven-operation grant and revoke): every
 * change is verified by reading the ACL back.
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
      const identity = await connection.grant(ttag, grantee, rights);
      const acl = await connection.readAcl(ttag);
      const entry = acl.entries.find((e) => e.principal.principalId === identity.principalId);
      return verifyWrite(`grant to ${grantee}`, rights, (e: AclEntry) => e.rights, entry);
    });
  }

  /** Removes `grantee` from the key's ACL; owner only. The entry must be gone on read-back. */
  revoke(caller: Caller, ttag: string, grantee: string): Promise<void> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.revoke(ttag, grantee);
      const acl = await connection.readAcl(ttag);
      if (acl.entries.some((e) => e.principal.user === grantee)) {
        throw new NotSavedError(`revocation of ${grantee} did not take effect`);
      }
    });
  }

  /** The caller's effective rights on the key. */
  access(caller: Caller, ttag: string): Promise<readonly Right[]> {
    return withConnection(this.#keyServer, caller, (connection) => connection.accessRights(ttag));
  }
}
