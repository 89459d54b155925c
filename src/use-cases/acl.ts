import type { Right } from '../domain/acl/acl.js';
import { KeygateError } from '../domain/errors/index.js';
import type { Identity } from '../domain/identity/identity.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** A write the read-back did not find (seed 001 §7.4). */
export class NotSavedError extends KeygateError {
  constructor(detail: string) {
    super('NOT_SAVED', detail);
  }
}

/** A write the read-back found different from what was asked (seed 001 §7.4). */
export class NotVerifiedError extends KeygateError {
  constructor(detail: string) {
    super('NOT_VERIFIED', detail);
  }
}

/** Grants and revocations on a key's ACL, each verified by reading the ACL back. */
export class AclUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  /** Sets `grantee`'s rights on the key; owner only. Answers the resolved grantee. */
  grant(caller: Caller, ttag: string, grantee: string, rights: readonly Right[]): Promise<Identity> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const identity = await connection.grant(ttag, grantee, rights);
      const acl = await connection.readAcl(ttag);
      const entry = acl.entries.find((e) => e.principal.principalId === identity.principalId);
      if (!entry) throw new NotSavedError(`grant to ${grantee} is not on the key's ACL`);
      if (!sameRights(entry.rights, rights)) throw new NotVerifiedError(`grant to ${grantee} was stored with other rights`);
      return identity;
    });
  }

  /** Removes `grantee` from the key's ACL; owner only. */
  revoke(caller: Caller, ttag: string, grantee: string): Promise<void> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.revoke(ttag, grantee);
      const acl = await connection.readAcl(ttag);
      if (acl.entries.some((e) => e.principal.user === grantee)) {
        throw new NotSavedError(`revocation of ${grantee} did not take effect`);
      }
    });
  }
}

function sameRights(a: readonly Right[], b: readonly Right[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((r) => right.has(r));
}
