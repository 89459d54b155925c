import type { WitnessedHead } from '../domain/audit/audit-witness.js';

/**
 * A store of chain heads kept outside the audit database (`WitnessedHead`): written after every group
 * commit, before its writes are acknowledged, read at boot and by verification. Someone who can
 * rewrite the audit database but not this store cannot hide a truncation of acknowledged entries.
 * Errors: `record` and `heads` throw when the witness cannot be written or read.
 * Optional (a gateway without a data directory has none): it travels with the verifier's keys
 * (`AuditVerifyKeys.witness`) and the chain's `onWitness`, not through the container.
 */
export interface AuditWitness {
  /** Keeps `head` as the writer's newest witnessed head. */
  record(head: WitnessedHead): Promise<void>;
  /** Every writer's newest witnessed head this witness holds. */
  heads(): Promise<readonly WitnessedHead[]>;
}
