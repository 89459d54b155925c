import type { RandomSource } from '../crypto/random-source.js';
import { AuditChainRegressedError } from '../domain/audit/audit.errors.js';
import { newAuditId } from '../domain/audit/audit.js';
import type { AuditChain } from '../domain/audit/audit-chain.js';
import { chainRestartRecord } from '../domain/audit/audit-restart.js';
import type { AuditLog } from '../ports/audit-log.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { AuditIntegrity } from './audit-keys.js';

/**
 * Opens the audit store on the gateway's chain. A store that lost the witnessed end of that chain
 * throws AuditChainRegressedError, unless the operator asked for a new chain (`--new-audit-chain`,
 * docs/spec.md §9.6): then the store is opened on a chain of a new writer, whose first entry, written
 * before anything else, records the loss (the old writer, the last seq the store still holds, the seq
 * and MAC its witness saw). The old chain and its witnessed head are left as they are, so verify keeps
 * reporting the loss.
 */
export async function openOrRestartChain(
  integrity: AuditIntegrity,
  open: (chain: AuditChain) => Promise<AuditLog>,
  deps: { logger: Logger; random: RandomSource; now: () => number },
): Promise<AuditLog> {
  let regression: AuditChainRegressedError;
  try {
    const log = await open(integrity.chain);
    if (integrity.newChain)
      deps.logger.warn('--new-audit-chain: the audit store holds the witnessed chain; it goes on', { writer: integrity.chain.writer });
    return log;
  } catch (error) {
    if (!(error instanceof AuditChainRegressedError) || !integrity.newChain) throw error;
    regression = error;
  }
  const lost = integrity.chain.writer;
  const witnessed = integrity.witnessed;
  const restart = {
    writer: lost,
    storedSeq: regression.at?.storedSeq ?? 0,
    witnessedSeq: regression.at?.reachedSeq ?? witnessed?.seq ?? 0,
    witnessedMac: witnessed?.mac ?? '',
  };
  const chain = integrity.nextChain();
  deps.logger.warn('starting a new audit chain (--new-audit-chain): the store lost the end of the old one, which verify keeps reporting', {
    lostWriter: lost,
    storedSeq: restart.storedSeq,
    witnessedSeq: restart.witnessedSeq,
    writer: chain.writer,
  });
  const log = await open(chain);
  try {
    await log.append(chainRestartRecord(newAuditId(deps.random), deps.now(), restart));
  } catch (error) {
    await log.close();
    throw error;
  }
  return log;
}
