import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { bearer, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { auditCli } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

/** docs/spec.md §9.1 `keys`: a batch's record names every distinct key and version its items named. */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const b64 = (text: string) => Buffer.from(text).toString('base64');
let schemas = 0;

type AuditStore = 'sqlite' | 'postgres';

/** A gateway recording into a SQLite file or a PostgreSQL schema of its own, and the offline verify of that log. */
async function recording(t: ExecutionContext, store: AuditStore) {
  const dir = scratchDir(`keygate-batch-keys-${store}-`);
  const integrity = { writer: 'gw-batch', dataDir: dir, checkpointEvery: 4 };
  if (store === 'sqlite') {
    const file = join(dir, 'audit.db');
    const gw = await startGateway(t, { audit: { kind: 'sqlite', file }, auditIntegrity: integrity });
    return { gw, verify: () => auditCli(['verify', '--sqlite', file, '--data-dir', dir]) };
  }
  const schema = `batch_keys_${process.pid}_${schemas++}`;
  const audit = { kind: 'postgres' as const, url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 };
  const gw = await startGateway(t, { audit, auditIntegrity: integrity });
  return { gw, verify: () => auditCli(['verify', '--postgres', postgres.url!, '--schema', schema, '--data-dir', dir]) };
}

for (const store of ['sqlite', 'postgres'] as const) {
  const check = testUnless(store === 'postgres' ? postgres.reason : undefined);
  check(
    `${store}: a batch decrypt over two keys and an unparsable ttag is recorded naming both keys and their versions, and the log verifies clean`,
    async (t) => {
      const { gw, verify } = await recording(t, store);
      const alice = await signIn(gw, 'alice');
      const bob = await signIn(gw, 'bob');
      const { ttag: own } = await createKey(alice);
      const { ttag: decoy } = await createKey(bob);
      t.is((await bob.post(`/api/keys/${pathTtag(decoy)}/rotate`)).status, 200);
      const sealed = await alice.post('/api/crypto/encrypt', { ttag: own, plaintext: b64('payroll') });
      t.is(sealed.status, 200, sealed.text);
      const { ciphertext, iv, authTag } = sealed.body;

      const opened = await alice.post('/api/crypto/decrypt', {
        items: [
          { ttag: own, ciphertext, iv, authTag },
          { ttag: decoy, ciphertext, iv, authTag, version: 2 },
          { ttag: 'not a ttag!', ciphertext, iv, authTag },
        ],
      });
      t.is(opened.status, 200, opened.text);
      t.deepEqual(
        opened.body.items.map((item: { ok: boolean; error?: { code: string } }) => (item.ok ? 'ok' : item.error!.code)),
        ['ok', 'ACL_DENIED', 'BAD_REQUEST'],
      );

      const auditor = await signIn(gw, 'audra');
      const records = (await auditor.get('/api/audit?operation=crypto.decrypt')).body.items;
      t.is(records.length, 1);
      t.like(records[0], { principal: 'alice', items: 3, failures: 2 });
      t.deepEqual(records[0].keys, [
        { ttag: own, version: 1 },
        { ttag: decoy, version: 2 },
      ]);
      t.false('object' in records[0], 'a batch over several keys has no single object');
      t.false('keysOmitted' in records[0]);
      t.deepEqual((await auditor.get(`/api/audit/${records[0].id}`)).body.keys, records[0].keys);

      const offline = await verify();
      t.is(offline.status, 0, offline.stderr);
      t.like(offline.answer, { ok: true });
      const online = await gw.call('GET', '/api/audit/verify', { headers: bearer(auditor.sessionId) });
      t.like(online, { status: 200, body: { ok: true } });
    },
  );
}
