import type { AclUseCases } from './acl.js';
import type { AliasUseCases } from './aliases.js';
import type { AuditTrail, AuditUseCases } from './audit.js';
import type { CryptoUseCases } from './crypto.js';
import type { DestructionRecords } from './destruction-records.js';
import type { GroupUseCases } from './groups.js';
import type { HealthUseCases } from './health.js';
import type { KeyServerCalls } from './key-server-calls.js';
import type { KeyUseCases } from './keys.js';
import type { LoginThrottle } from './login-throttle.js';
import type { PolicyUseCases } from './policy.js';
import type { PrincipalUseCases } from './principals.js';
import type { ProofChecker } from './proof-check.js';
import type { PublishedJwks } from './published-jwks.js';
import type { RoleUseCases } from './roles.js';
import type { ServerUseCases } from './server.js';
import type { SessionUseCases } from './sessions.js';
import type { TrustUseCases } from './trust.js';

/** What the composition root hands the transports: use cases only, never the container. */
export interface GatewayServices {
  readonly sessions: SessionUseCases;
  /** Failed-login throttling: password logins and the own-password change's current password run through it. */
  readonly loginThrottle: LoginThrottle;
  /** Every key-server operation whose route only forwards it (no rule of the gateway's). */
  readonly keyServerCalls: KeyServerCalls;
  readonly keys: KeyUseCases;
  readonly acl: AclUseCases;
  /** Aliases of keys (docs/spec.md §4.23 item 3): verified writes. */
  readonly aliases: AliasUseCases;
  readonly crypto: CryptoUseCases;
  readonly principals: PrincipalUseCases;
  readonly groups: GroupUseCases;
  readonly roles: RoleUseCases;
  readonly health: HealthUseCases;
  readonly trust: TrustUseCases;
  readonly server: ServerUseCases;
  readonly policy: PolicyUseCases;
  readonly proofs: ProofChecker;
  /** Writing side of the audit log: every operation's one record. */
  readonly auditTrail: AuditTrail;
  /** Reading side of the audit log (GET /api/audit). */
  readonly audit: AuditUseCases;
  /** The audit records of keys the key server's sweep destroyed (docs/spec.md §4.23 item 5), a background task. */
  readonly destructionRecords: DestructionRecords;
  /** The published JWKS of signing keys (docs/spec.md §4.25 item 7), served without a session. */
  readonly publishedJwks: PublishedJwks;
}

export { NotSavedError, NotVerifiedError } from '../domain/errors/index.js';
export { AclUseCases } from './acl.js';
export { AliasUseCases } from './aliases.js';
export { type AuditDraft, AuditTrail, AuditUseCases } from './audit.js';
export { CryptoUseCases } from './crypto.js';
export { DestructionRecords } from './destruction-records.js';
export { GroupUseCases } from './groups.js';
export { type HealthReport, HealthUseCases } from './health.js';
export { KeyServerCalls } from './key-server-calls.js';
export { type ExportedKey, KeyUseCases } from './keys.js';
export { LoginThrottle } from './login-throttle.js';
export { PolicyUseCases } from './policy.js';
export { type PrincipalRequest, PrincipalUseCases } from './principals.js';
export { type PresentedRequest, ProofChecker } from './proof-check.js';
export { PublishedJwks } from './published-jwks.js';
export type { ReleaseGate } from './release-gate.js';
export { RoleUseCases } from './roles.js';
export { ServerUseCases } from './server.js';
export type { Caller } from './session-context.js';
export { type MintedSession, SessionUseCases } from './sessions.js';
export { TrustUseCases } from './trust.js';
