import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { responses } from '../../src/transports/koa/api/api-responses.js';
import { bearer, createKey, signIn } from '../_support/api-client.js';
import { auditCli } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

/**
 * docs/spec.md §4.5b item 5, §9.1 `context`, `contexts`, `contextsOmitted`: the record of a request
 * that named an encryption context carries it, a batch's its distinct ones, on every audit store, and
 * the log verifies clean online and offline.
 */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
let schemas = 0;

const b64 = (text: string) => Buffer.from(text).toString('base64');
/** Members in another order than their canonical one, a non-BMP value and the longest one §4.5b item 1 allows. */
const WIDE = { tenant: 'acme', '10': 'ten', 'purpose:billing': '\u{1F511} key', long: 'x'.repeat(256) };
const ACME = { tenant: 'acme', purpose: 'billing' };
const ACME_REORDERED = { purpose: 'billing', tenant: 'acme' };
const OTHER = { tenant: 'globex' };

type AuditStore = 'memory' | 'sqlite' | 'postgres';

/** A gateway recording into memory, a SQLite file or a PostgreSQL schema of its own, and the offline verify of that log. */
async function recording(t: ExecutionContext, store: AuditStore) {
  const dir = scratchDir(`keygate-audit-context-${store}-`);
  const integrity = { writer: 'gw-ctx', dataDir: dir, checkpointEvery: 4 };
  if (store === 'memory') return { gw: await startGateway(t, { auditIntegrity: integrity }), verify: undefined };
  if (store === 'sqlite') {
    const file = join(dir, 'audit.db');
    const gw = await startGateway(t, { audit: { kind: 'sqlite', file }, auditIntegrity: integrity });
    return { gw, verify: () => auditCli(['verify', '--sqlite', file, '--data-dir', dir]) };
  }
  const schema = `audit_context_${process.pid}_${schemas++}`;
  const audit = { kind: 'postgres' as const, url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 };
  const gw = await startGateway(t, { audit, auditIntegrity: integrity });
  return { gw, verify: () => auditCli(['verify', '--postgres', postgres.url!, '--schema', schema, '--data-dir', dir]) };
}

for (const store of ['memory', 'sqlite', 'postgres'] as const) {
  const check = testUnless(store === 'postgres' ? postgres.reason : undefined);
  check(`${store}: an encrypt's record carries its context, a batch's its distinct contexts, and the log verifies clean`, async (t) => {
    const { gw, verify } = await recording(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice);
    const single = await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('one'), context: WIDE });
    t.is(single.status, 200, single.text);
    const wrong = await alice.post('/api/crypto/decrypt', { ttag, sealed: single.body.sealed, context: OTHER });
    t.like(wrong, { status: 400, body: { code: 'DECRYPT_FAILED' } });
    t.false(wrong.text.includes('globex'), 'never a context on a failure');
    const batch = await alice.post('/api/crypto/decrypt', {
      items: [
        { ttag, sealed: single.body.sealed, context: WIDE },
        { ttag, sealed: single.body.sealed, context: ACME },
        { ttag, sealed: single.body.sealed, context: ACME_REORDERED },
        { ttag, sealed: single.body.sealed },
        { ttag, sealed: single.body.sealed, context: {} },
      ],
    });
    t.is(batch.status, 200, batch.text);
    const many = await alice.post('/api/crypto/encrypt', {
      items: Array.from({ length: 19 }, (_, i) => ({ ttag, plaintext: b64('x'), context: { item: String(i % 18) } })),
    });
    t.is(many.status, 200, many.text);

    const auditor = await signIn(gw, 'audra');
    const encrypts = await auditor.get('/api/audit?operation=crypto.encrypt');
    t.is(encrypts.status, 200, encrypts.text);
    t.true(responses.auditPage.safeParse(encrypts.body).success, 'the answer is the documented AuditRecord');
    // Found by their content: records of the same millisecond are ordered by id (docs/spec.md §4.15).
    const records = encrypts.body.items as Record<string, unknown>[];
    const singleRecord = records.find((record) => record.items === undefined)!;
    const manyRecord = records.find((record) => record.items !== undefined)!;
    t.deepEqual(singleRecord.context, WIDE);
    t.like(singleRecord, { principal: 'alice', object: ttag, outcome: 'ok' });
    t.deepEqual(
      manyRecord.contexts,
      Array.from({ length: 16 }, (_, i) => ({ item: String(i) })),
    );
    t.like(manyRecord, { items: 19, contextsOmitted: 2 });
    t.deepEqual((await auditor.get(`/api/audit/${singleRecord.id}`)).body.context, WIDE);

    const decrypts = await auditor.get('/api/audit?operation=crypto.decrypt');
    t.true(responses.auditPage.safeParse(decrypts.body).success, 'the answer is the documented AuditRecord');
    const batchRecord = decrypts.body.items.find((record: Record<string, unknown>) => record.items !== undefined);
    const wrongRecord = decrypts.body.items.find((record: Record<string, unknown>) => record.items === undefined);
    t.like(wrongRecord, { outcome: 'error', code: 'DECRYPT_FAILED', context: OTHER });
    t.deepEqual(batchRecord.contexts, [WIDE, ACME]);
    t.false('contextsOmitted' in batchRecord);

    const online = await gw.call('GET', '/api/audit/verify', { headers: bearer(auditor.sessionId) });
    t.like(online, { status: 200, body: { ok: true } });
    if (verify === undefined) return;
    const offline = await verify();
    t.is(offline.status, 0, offline.stderr);
    t.like(offline.answer, { ok: true });
  });
}
