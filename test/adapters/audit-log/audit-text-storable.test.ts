import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { MemoryAuditLog } from '../../../src/adapters/audit-log/memory-audit-log.js';
import { PostgresAuditLog } from '../../../src/adapters/audit-log/postgres-audit-log.js';
import { SqliteAuditLog } from '../../../src/adapters/audit-log/sqlite-audit-log.js';
import type { AuditRecord } from '../../../src/domain/audit/audit.js';
import { verifyAuditLog } from '../../../src/domain/audit/audit-verify.js';
import type { AuditLog } from '../../../src/ports/audit-log.port.js';
import { type AuditTestKeys, auditTestKeys, testChain, trusted } from '../../_support/audit-chain.js';
import { startTestPostgres } from '../../_support/postgres.js';
import { auditRecord } from '../../ports/audit-log.contract.js';

/**
 * Every text value of an entry is made storable before it is sealed (docs/operations.md "What is chained, and with which keys"), so
 * the MAC and the public hash cover exactly what each store keeps: a verifier reading it back finds
 * the entry as it was sealed. [given, as stored]: well-formed text other than NUL is kept as given.
 */
const HOSTILE: readonly (readonly [string, string, string])[] = [
  ['a lone high surrogate', 'bob\ud800', 'bob\ufffd'],
  ['a lone low surrogate', 'bob\udc00x', 'bob\ufffdx'],
  ['a pair the wrong way round', '\udc00\ud800', '\ufffd\ufffd'],
  ['NUL', 'a\u0000b', 'a\ufffdb'],
  ['other C0 controls, DEL and NEL', '\u0001\u0007\t\n\r\u001b\u001f\u007f\u0085', '\u0001\u0007\t\n\r\u001b\u001f\u007f\u0085'],
  ['non-BMP characters', '\u{1F600}\u{1D11E}\u{10FFFF}', '\u{1F600}\u{1D11E}\u{10FFFF}'],
  ['combining marks', 'e\u0301\u0308 a\u0332', 'e\u0301\u0308 a\u0332'],
  ['line and paragraph separators, noncharacters', '\u2028\u2029\ufffe\uffff', '\u2028\u2029\ufffe\uffff'],
  ['64 KiB', `${'x'.repeat(65_535)}\ud800`, `${'x'.repeat(65_535)}\ufffd`],
];

const TEXT_FIELDS = ['requestId', 'principal', 'sessionRef', 'object', 'code', 'clientAddress', 'actingFor'] as const;

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
let schemas = 0;

type Opened = { log: AuditLog; keys: AuditTestKeys };
/** Each store, with why it is skipped when it is. */
const STORES: readonly (readonly [string, string | undefined])[] = [
  ['memory', undefined],
  ['sqlite', undefined],
  ['postgres', postgres.reason],
];

async function open(t: ExecutionContext, store: string): Promise<Opened> {
  const keys = auditTestKeys();
  const chain = testChain(`gw-${store}`, keys, { checkpointEvery: 5 });
  let log: AuditLog;
  if (store === 'memory') log = new MemoryAuditLog({ chain });
  else if (store === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-text-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    log = SqliteAuditLog.open({ file: join(dir, 'audit.db'), chain });
  } else {
    const schema = `text_${process.pid}_${schemas++}`;
    log = await PostgresAuditLog.open({ url: postgres.url!, schema, chain, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 });
  }
  t.teardown(() => log.close());
  return { log, keys };
}

/** A record with every text field (but its id and operation) holding `text`. */
function hostileRecord(text: string, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return auditRecord({ ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, text])), ...overrides });
}

async function verifiesClean(t: ExecutionContext, { log, keys }: Opened): Promise<void> {
  const slice = await log.readChain();
  const report = verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) });
  t.like(report, { ok: true }, JSON.stringify(report.firstBreak));
  const publicOnly = verifyAuditLog({ ...slice, publicKeys: trusted(keys) });
  t.like(publicOnly, { ok: true }, JSON.stringify(publicOnly.firstBreak));
}

for (const [store, reason] of STORES) {
  const check = reason === undefined ? test : test.skip;
  check(`${store}: hostile text in every text field, written together, is stored as sealed and verifies clean`, async (t) => {
    const opened = await open(t, store);
    const records = HOSTILE.map(([, given]) => hostileRecord(given));
    const pendings = HOSTILE.map(([, given]) => hostileRecord(given, { operation: 'keys.generate', outcome: 'pending', status: 0 }));
    // All at once: on PostgreSQL they share multi-row INSERTs, on SQLite a commit.
    await Promise.all([...records, ...pendings].map((record) => opened.log.append(record)));
    const completed = await Promise.all(
      pendings.map((pending, i) =>
        opened.log.complete(pending.id, {
          outcome: 'error',
          status: 502,
          code: HOSTILE[i]![1],
          object: HOSTILE[i]![1],
          principal: HOSTILE[i]![1],
        }),
      ),
    );
    t.deepEqual(
      completed,
      HOSTILE.map(() => true),
    );
    for (const [i, [what, , stored]] of HOSTILE.entries()) {
      const record = await opened.log.get(records[i]!.id);
      for (const field of TEXT_FIELDS) t.is(record?.[field], stored, `${what}: ${field} is stored as the rule says`);
      const outcome = await opened.log.get(pendings[i]!.id);
      t.is(outcome?.code, stored, `${what}: the outcome's code is stored as the rule says`);
    }
    await verifiesClean(t, opened);
  });
}

for (const [store, reason] of STORES) {
  const check = reason === undefined ? test : test.skip;
  check(`${store}: hostile text in a context's names and values is stored as sealed and verifies clean`, async (t) => {
    const opened = await open(t, store);
    // One member per case, its name and value both holding the text: the gateway's rule refuses some of
    // it, but the audit seals what it stores whatever it is handed (docs/spec.md §9.3).
    const given = HOSTILE.map(([, text], i) => ({ [`n${i}${text}`]: text }));
    const asStored = HOSTILE.map(([, , text], i) => ({ [`n${i}${text}`]: text }));
    const single = given.map((context) => auditRecord({ operation: 'crypto.encrypt', context }));
    const batch = auditRecord({ operation: 'crypto.decrypt', items: given.length, contexts: given });
    const pending = auditRecord({ operation: 'crypto.datakey', outcome: 'pending', status: 0 });
    await Promise.all([...single, batch, pending].map((record) => opened.log.append(record)));
    t.true(await opened.log.complete(pending.id, { outcome: 'ok', status: 200, context: given[0]! }));
    for (const [i, [what]] of HOSTILE.entries()) {
      t.deepEqual((await opened.log.get(single[i]!.id))?.context, asStored[i], `${what}: a context is stored as the rule says`);
    }
    t.deepEqual((await opened.log.get(batch.id))?.contexts, asStored, "a batch's contexts are stored as the rule says");
    t.deepEqual((await opened.log.get(pending.id))?.context, asStored[0], "a completion's context is stored as the rule says");
    await verifiesClean(t, opened);
  });
}
