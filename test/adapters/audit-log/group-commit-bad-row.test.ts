import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { PostgresAuditLog } from '../../../src/adapters/audit-log/postgres-audit-log.js';
import { SqliteAuditLog } from '../../../src/adapters/audit-log/sqlite-audit-log.js';
import type { AuditRecord } from '../../../src/domain/audit/audit.js';
import { verifyAuditLog } from '../../../src/domain/audit/audit-verify.js';
import type { AuditLog } from '../../../src/ports/audit-log.port.js';
import { auditTestKeys, testChain, trusted } from '../../_support/audit-chain.js';
import { startTestPostgres } from '../../_support/postgres.js';
import { auditRecord } from '../../ports/audit-log.contract.js';

/**
 * Writes queued in one turn share one group commit (one SQLite transaction, one PostgreSQL multi-row
 * INSERT). A row the store cannot take (here `items: true`, which SQLite cannot bind and PostgreSQL's
 * integer column refuses) fails alone: the commit is retried row by row on any data error.
 */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
let schemas = 0;

const unstorable = (record: AuditRecord) => ({ ...record, items: true }) as unknown as AuditRecord;

async function oneBadRow(t: ExecutionContext, log: AuditLog, keys: ReturnType<typeof auditTestKeys>): Promise<void> {
  t.teardown(() => log.close());
  const good = Array.from({ length: 12 }, (_, i) => auditRecord({ principal: `user-${i}` }));
  const pending = Array.from({ length: 4 }, () => auditRecord({ operation: 'keys.generate', outcome: 'pending', status: 0 }));
  const bad = auditRecord({ principal: 'mallory' });
  // One turn: the bad row sits in the middle of the batch.
  const appends = [...good.slice(0, 6), unstorable(bad), ...good.slice(6), ...pending].map((record) => log.append(record));
  const settled = await Promise.allSettled(appends);
  t.deepEqual(
    settled.map((result) => result.status),
    settled.map((_, i) => (i === 6 ? 'rejected' : 'fulfilled')),
    'only the unstorable row failed',
  );
  t.is((settled[6] as PromiseRejectedResult).reason.code, 'AUDIT_UNAVAILABLE');
  // Completions and a second bad row in one turn again.
  const completions = await Promise.allSettled([
    ...pending.map((record) => log.complete(record.id, { outcome: 'ok', status: 201 })),
    log.append(unstorable(auditRecord())),
    log.append(auditRecord({ principal: 'after' })),
  ]);
  t.deepEqual(
    completions.map((result) => result.status),
    ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  for (const record of [...good, ...pending]) t.truthy(await log.get(record.id), 'each good record is stored');
  t.is(await log.get(bad.id), undefined);
  const slice = await log.readChain();
  t.is(slice.entries.length, good.length + 2 * pending.length + 1);
  const report = verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) });
  t.like(report, { ok: true }, JSON.stringify(report.firstBreak));
}

test('sqlite: one row the store cannot take fails alone in its group commit; the chain stays whole', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bad-row-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const keys = auditTestKeys();
  await oneBadRow(t, SqliteAuditLog.open({ file: join(dir, 'audit.db'), chain: testChain('gw-a', keys, { checkpointEvery: 5 }) }), keys);
});

(postgres.reason === undefined ? test : test.skip)(
  'postgres: one row the store cannot take fails alone in its multi-row INSERT; the chain stays whole',
  async (t) => {
    const keys = auditTestKeys();
    const chain = testChain('gw-a', keys, { checkpointEvery: 5 });
    const log = await PostgresAuditLog.open({
      url: postgres.url!,
      schema: `bad_row_${process.pid}_${schemas++}`,
      chain,
      connectTimeoutMs: 30_000,
    });
    await oneBadRow(t, log, keys);
  },
);
