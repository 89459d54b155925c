import type { AclUseCases } from './acl.js';
import type { CryptoUseCases } from './crypto.js';
import type { GroupUseCases } from './groups.js';
import type { HealthUseCases } from './health.js';
import type { IdentityAdminUseCases } from './identity-admin.js';
import type { KeyUseCases } from './keys.js';
import type { PrincipalUseCases } from './principals.js';
import type { RoleUseCases } from './roles.js';
import type { ProofChecker } from './proof-check.js';
import type { SessionUseCases } from './sessions.js';

/** What the composition root hands the transports: use cases only, never the container. */
export interface GatewayServices {
  readonly sessions: SessionUseCases;
  readonly keys: KeyUseCases;
  readonly acl: AclUseCases;
  readonly crypto: CryptoUseCases;
  readonly principals: PrincipalUseCases;
  readonly groups: GroupUseCases;
  readonly roles: RoleUseCases;
  readonly health: HealthUseCases;
  readonly identityAdmin: IdentityAdminUseCases;
  readonly proofs: ProofChecker;
}

export { AclUseCases } from './acl.js';
export { CryptoUseCases } from './crypto.js';
export { GroupUseCases } from './groups.js';
export { PrincipalUseCases, type PrincipalRequest } from './principals.js';
export { RoleUseCases } from './roles.js';
export { NotSavedError, NotVerifiedError } from './read-back.js';
export { HealthUseCases, type HealthReport } from './health.js';
export { IdentityAdminUseCases } from './identity-admin.js';
export { KeyUseCases, type ExportedKey } from './keys.js';
export { SessionUseCases, type MintedSession } from './sessions.js';
export { ProofChecker, type PresentedRequest } from './proof-check.js';
export type { Caller } from './session-context.js';
