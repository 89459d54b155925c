import type { AuditChain } from '../../domain/audit/audit-chain.js';

/**
 * Looks every `periodMs` whether the chain's checkpoint is due by time (docs/spec.md §9.4: every T seconds) and
 * then asks the store to write one (`poke` runs an empty commit whose end writes due checkpoints).
 * The timer does not keep the process alive; a failure waits for the next tick or the next write.
 */
export function startCheckpointTimer(chain: AuditChain, poke: () => Promise<unknown>, periodMs = 1_000): () => void {
  const timer = setInterval(() => {
    if (chain.checkpointDue()) poke().catch(() => undefined);
  }, periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
