import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { PostgresAuditLog } from '../../src/adapters/audit-log/postgres-audit-log.js';
import { SqliteAuditLog } from '../../src/adapters/audit-log/sqlite-audit-log.js';
import type { AuditLog } from '../../src/ports/audit-log.port.js';
import { bearer } from '../_support/api-client.js';
import { auditTestKeys, testChain, trusted } from '../_support/audit-chain.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { startGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';

/**
 * One row a store cannot take, committed together with others (docs/operations.md "What is chained, and with which keys"): the group
 * commit is retried row by row, so only that row's request fails (fail closed); every other request of
 * the batch is recorded and answered as usual, and the log verifies clean.
 */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const b64 = (text: string) => Buffer.from(text).toString('base64');
let schemas = 0;

async function oneUnstorableRow(t: ExecutionContext, open: (chain: ReturnType<typeof testChain>) => Promise<AuditLog>): Promise<void> {
  const keys = auditTestKeys();
  const log = new FaultyAuditLog(await open(testChain('gw-a', keys, { checkpointEvery: 4 })));
  const gw = await startGateway(t, {}, { auditLog: log, auditVerifyKeys: { macKey: keys.macKey, publicKeys: trusted(keys) } });
  const admin = bearer(await gw.login('admin'));
  const alice = bearer(await gw.login('alice'));
  const ttag = (await gw.call('POST', '/api/keys', { headers: admin, body: {} })).body.ttag as string;
  log.faults.unstorable = (record) => record.principal === 'alice';

  const creations = Array.from({ length: 20 }, () => gw.call('POST', '/api/keys', { headers: admin, body: {} }));
  const encrypts = Array.from({ length: 20 }, (_, i) =>
    gw.call('POST', '/api/crypto/encrypt', { headers: admin, body: { ttag, plaintext: b64(`${i}`) } }),
  );
  const poisoned = gw.call('POST', '/api/keys', { headers: alice, body: {} });
  const [created, encrypted, refused] = await Promise.all([Promise.all(creations), Promise.all(encrypts), poisoned]);
  log.faults.unstorable = undefined;

  t.is(refused.status, 503, `the key creation whose record could not be stored is refused (fail closed): ${refused.text}`);
  t.is(refused.body.code, 'AUDIT_UNAVAILABLE');
  t.deepEqual(
    created.map((reply) => reply.status),
    created.map(() => 201),
    'every key creation beside it is answered',
  );
  t.deepEqual(
    encrypted.map((reply) => reply.status),
    encrypted.map(() => 200),
    'every encrypt beside it is answered',
  );
  const generated = await log.query({ operation: 'keys.create', outcome: 'ok', limit: 100 });
  t.is(generated.items.length, 21, 'every key creation is recorded, completed');
  const encryptions = await log.query({ operation: 'crypto.encrypt', limit: 100 });
  t.is(encryptions.items.length, 20, 'every encrypt is recorded');
  const verify = await gw.call('GET', '/api/audit/verify', { headers: admin });
  t.like(verify.body, { ok: true }, verify.text);
}

test.serial('sqlite: a row the store cannot take fails alone; the rest of its group commit is recorded and answered', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-unstorable-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await oneUnstorableRow(t, async (chain) => SqliteAuditLog.open({ file: join(dir, 'audit.db'), chain }));
});

(postgres.reason === undefined ? test.serial : test.skip)(
  'postgres: a row the store cannot take fails alone; the rest of its multi-row INSERT is recorded and answered',
  async (t) => {
    const schema = `unstorable_${process.pid}_${schemas++}`;
    await oneUnstorableRow(t, (chain) =>
      PostgresAuditLog.open({ url: postgres.url!, schema, chain, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 }),
    );
  },
);
