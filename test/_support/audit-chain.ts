import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { CHECKPOINT_COLUMNS, checkpointValues, ENTRY_COLUMNS, entryValues } from '../../src/adapters/audit-log/audit-sql.js';
import { SqliteAuditLog } from '../../src/adapters/audit-log/sqlite-audit-log.js';
import { AuditChain, type AuditChainOptions, type AuditSigningKey, auditSigningKey } from '../../src/domain/audit/audit-chain.js';
import { entryOf } from '../../src/domain/audit/audit-entry.js';

/** Keys a deployment shares: the MAC key and one checkpoint signing key. */
export interface AuditTestKeys {
  readonly macKey: Buffer;
  readonly signingKey: AuditSigningKey;
}

export function auditTestKeys(): AuditTestKeys {
  return { macKey: randomBytes(32), signingKey: auditSigningKey(generateKeyPairSync('ed25519').privateKey) };
}

/** A chain for one writer under `keys` (fresh ones by default), on the real clock unless told. */
export function testChain(writer: string, keys: AuditTestKeys = auditTestKeys(), options: Partial<AuditChainOptions> = {}): AuditChain {
  return new AuditChain({ writer, macKey: keys.macKey, signingKey: keys.signingKey, now: () => Date.now(), ...options });
}

/** The trusted key map a verifier takes. */
export function trusted(keys: AuditTestKeys): Map<string, AuditSigningKey['publicKey']> {
  return new Map([[keys.signingKey.keyId, keys.signingKey.publicKey]]);
}

/**
 * Fills a SQLite audit database (created and migrated when missing) with `count` record entries of a
 * valid chain sealed by `chain`, and a checkpoint every `checkpointEvery` entries, in one transaction
 * written straight to the file: a large history in a second, without the gateway's per-write commits.
 */
export async function writeSqliteChain(
  file: string,
  chain: AuditChain,
  count: number,
  { at = Date.now(), checkpointEvery = 1000 } = {},
): Promise<void> {
  await SqliteAuditLog.open({ file }).close();
  const db = new Database(file);
  try {
    const marks = (columns: string) =>
      columns
        .split(',')
        .map(() => '?')
        .join(', ');
    const insert = db.prepare(`INSERT INTO audit_entry (${ENTRY_COLUMNS}) VALUES (${marks(ENTRY_COLUMNS)})`);
    const insertCheckpoint = db.prepare(`INSERT INTO audit_checkpoint (${CHECKPOINT_COLUMNS}) VALUES (${marks(CHECKPOINT_COLUMNS)})`);
    db.transaction(() => {
      for (let i = 0; i < count; i += 1) {
        const id = randomBytes(16).toString('hex');
        const record = {
          id,
          at: at + i,
          requestId: id,
          operation: 'keys.get',
          principal: 'alice',
          object: `ttag-${i}`,
          outcome: 'ok' as const,
          status: 200,
        };
        const sealed = chain.seal(entryOf(record));
        insert.run(...entryValues(sealed, (ms) => ms));
        chain.advance(sealed);
        if ((i + 1) % checkpointEvery === 0 || i + 1 === count) {
          const checkpoint = chain.checkpoint()!;
          insertCheckpoint.run(...checkpointValues(checkpoint, (ms) => ms));
          chain.checkpointed(checkpoint);
        }
      }
    })();
  } finally {
    db.close();
  }
}
