import type { AclUseCases } from './acl.js';
import type { AuditTrail, AuditUseCases } from './audit.js';
import type { HealthUseCases } from './health.js';
import type { IdentityAdminUseCases } from './identity-admin.js';
import type { KeyUseCases } from './keys.js';
import type { ProofChecker } from './proof-check.js';
import type { SessionUseCases } from './sessions.js';

/** What the composition root hands the transports: use cases only, never the container. */
export interface GatewayServices {
  readonly sessions: SessionUseCases;
  readonly keys: KeyUseCases;
  readonly acl: AclUseCases;
  readonly health: HealthUseCases;
  readonly identityAdmin: IdentityAdminUseCases;
  readonly proofs: ProofChecker;
  /** Writing side of the audit log: every operation's one record. */
  readonly auditTrail: AuditTrail;
  /** Reading side of the audit log (GET /api/audit). */
  readonly audit: AuditUseCases;
}

export { AclUseCases, NotSavedError, NotVerifiedError } from './acl.js';
export { AuditTrail, AuditUseCases, type AuditDraft, type CanReadAudit } from './audit.js';
export { HealthUseCases, type HealthReport } from './health.js';
export { IdentityAdminUseCases } from './identity-admin.js';
export { KeyUseCases, type ExportedKey } from './keys.js';
export { SessionUseCases, type MintedSession } from './sessions.js';
export { ProofChecker, type PresentedRequest } from './proof-check.js';
export type { Caller } from './session-context.js';
