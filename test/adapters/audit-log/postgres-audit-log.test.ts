import { createServer, type Socket } from 'node:net';
import test from 'ava';
import pg from 'pg';
import { foldedRecordView } from '../../../src/adapters/audit-log/audit-sql.js';
import { PostgresAuditLog, type PostgresAuditLogOptions } from '../../../src/adapters/audit-log/postgres-audit-log.js';
import { verifyAuditLog } from '../../../src/domain/audit/audit-verify.js';
import { auditTestKeys, testChain, trusted } from '../../_support/audit-chain.js';
import { startTestPostgres } from '../../_support/postgres.js';
import { testUnless } from '../../_support/skip.js';
import { auditRecord } from '../../ports/audit-log.contract.js';

const postgres = startTestPostgres();
// A second server, stopped by a test (started here: starting one blocks, and would stall the others).
const doomed = postgres.reason === undefined ? startTestPostgres() : postgres;
test.after.always(() => Promise.all([postgres.stop(), doomed.stop()]));
const check = testUnless(postgres.reason);
let schemas = 0;
const schema = () => `adapter_${process.pid}_${schemas++}`;
/** Opens with generous bounds unless a test sets its own: a loaded CI machine is slow to connect. */
const open = (options: Partial<PostgresAuditLogOptions> = {}) =>
  PostgresAuditLog.open({ url: postgres.url!, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000, ...options });

test('a server on a port where nothing listens is AuditUnavailableError at open, at once', async (t) => {
  const started = Date.now();
  await t.throwsAsync(PostgresAuditLog.open({ url: 'postgres://keygate:pw-secret-1@127.0.0.1:1/audit' }), {
    code: 'AUDIT_UNAVAILABLE',
  } as never);
  t.true(Date.now() - started < 3_000);
});

test('a server that accepts and never answers is AuditUnavailableError within the connect bound, never a hang', async (t) => {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
  const port = (silent.address() as { port: number }).port;
  const started = Date.now();
  const error = await t.throwsAsync(
    PostgresAuditLog.open({ url: `postgres://keygate:pw-secret-1@127.0.0.1:${port}/audit`, connectTimeoutMs: 300 }),
  );
  t.is((error as { code?: string }).code, 'AUDIT_UNAVAILABLE');
  t.true(Date.now() - started < 2_000);
  t.false(
    JSON.stringify({ message: error?.message, cause: String(error?.cause) }).includes('pw-secret-1'),
    'the URL password is never in an error',
  );
  for (const socket of sockets) socket.destroy();
  silent.close();
});

check('a statement stuck behind a lock ends as AuditUnavailableError within the statement bound', async (t) => {
  const name = schema();
  await (await open({ schema: name })).close();
  const log = await open({ schema: name, statementTimeoutMs: 300 });
  const blocker = new pg.Client({ connectionString: postgres.url! });
  await blocker.connect();
  await blocker.query('BEGIN');
  await blocker.query(`LOCK TABLE "${name}".audit_record IN ACCESS EXCLUSIVE MODE`);
  const started = Date.now();
  await t.throwsAsync(log.append(auditRecord()), { code: 'AUDIT_UNAVAILABLE' } as never);
  await t.throwsAsync(log.query({}), { code: 'AUDIT_UNAVAILABLE' } as never);
  t.true(Date.now() - started < 10_000);
  await blocker.query('ROLLBACK');
  await blocker.end();
  await log.append(auditRecord());
  t.is((await log.query({})).items.length, 1, 'the log works again once the lock is gone');
  await log.close();
});

check('a stopped server makes every call AuditUnavailableError', async (t) => {
  if (doomed.url === undefined) return t.fail(doomed.reason);
  const log = await open({ url: doomed.url });
  await log.append(auditRecord());
  await doomed.stop();
  await t.throwsAsync(log.append(auditRecord()), { code: 'AUDIT_UNAVAILABLE' } as never);
  await t.throwsAsync(log.query({}), { code: 'AUDIT_UNAVAILABLE' } as never);
  await t.throwsAsync(log.ping(), { code: 'AUDIT_UNAVAILABLE' } as never);
  await log.close();
});

check('gateways opening one schema together migrate it once; a reopened log keeps its records', async (t) => {
  const name = schema();
  const logs = await Promise.all(Array.from({ length: 4 }, () => open({ schema: name, poolSize: 1 })));
  const record = auditRecord();
  await logs[0]!.append(record);
  t.deepEqual(await logs[3]!.get(record.id), record);
  await Promise.all(logs.map((log) => log.close()));
  const again = await open({ schema: name });
  t.deepEqual((await again.query({})).items, [record]);
  await again.close();
  const client = new pg.Client({ connectionString: postgres.url! });
  await client.connect();
  const versions = await client.query(`SELECT version FROM "${name}".keygate_audit_schema_version`);
  t.deepEqual(versions.rows, [{ version: 8 }]);
  await client.end();
});

check('a database from a newer keygate is refused at open, naming its version', async (t) => {
  const name = schema();
  await (await open({ schema: name })).close();
  const client = new pg.Client({ connectionString: postgres.url! });
  await client.connect();
  await client.query(`UPDATE "${name}".keygate_audit_schema_version SET version = 9`);
  await client.end();
  await t.throwsAsync(open({ schema: name }), { code: 'AUDIT_UNAVAILABLE', message: /version 9/ } as never);
});

test('a schema name that is not a plain identifier is refused before connecting', async (t) => {
  await t.throwsAsync(PostgresAuditLog.open({ url: 'postgres://127.0.0.1:1/x', schema: 'x"; DROP TABLE y; --' }), {
    code: 'AUDIT_UNAVAILABLE',
  } as never);
});

check('two processes writing as one writer: the second to take a seq fails closed, and the chain stays whole', async (t) => {
  const name = schema();
  const keys = auditTestKeys();
  const a = await open({ schema: name, chain: testChain('gw', keys) });
  const b = await open({ schema: name, chain: testChain('gw', keys) });
  await a.append(auditRecord());
  await b.append(auditRecord());
  await t.throwsAsync(a.append(auditRecord()), { code: 'AUDIT_UNAVAILABLE' } as never);
  await a.append(auditRecord());
  const slice = await a.readChain();
  t.deepEqual(slice.entries.map((e) => e.seq).sort(), [1, 2, 3]);
  t.true(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).ok);
  await a.close();
  await b.close();
});

check(
  "a version 6 schema gains the signing columns: its entries still verify, and a key's type, alg and kid are stored, chained and read",
  async (t) => {
    const name = schema();
    const keys = auditTestKeys();
    const before = await open({ schema: name, chain: testChain('gw', keys) });
    const old = auditRecord({ operation: 'crypto.encrypt', object: 'dGFnLW9uZQ==', alias: 'billing', version: 1 });
    await before.append(old);
    await before.close();
    // Back to version 6: without the three columns, its view as migration 6 made it.
    const client = new pg.Client({ connectionString: postgres.url! });
    await client.connect();
    const s = `"${name}"`;
    await client.query(`DROP VIEW ${s}.audit_record;
    ALTER TABLE ${s}.audit_entry DROP COLUMN context, DROP COLUMN contexts, DROP COLUMN contexts_omitted;
    ALTER TABLE ${s}.audit_entry DROP COLUMN key_type, DROP COLUMN alg, DROP COLUMN kid;
    ${foldedRecordView(`${s}.audit_entry`, `${s}.audit_record`, { withSigning: false })};
    UPDATE ${s}.keygate_audit_schema_version SET version = 6;`);
    await client.end();

    const after = await open({ schema: name, chain: testChain('gw', keys) });
    t.teardown(() => after.close());
    const signed = auditRecord({
      operation: 'crypto.sign',
      object: 'dGFnLW9uZQ==',
      version: 1,
      keyType: 'ec-p384',
      alg: 'ES384',
      kid: 'a-b_c',
    });
    await after.append(signed);
    t.deepEqual(await after.get(old.id), old);
    t.deepEqual(await after.get(signed.id), signed);
    const slice = await after.readChain();
    t.is(slice.entries.length, 2);
    t.is(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, undefined);
  },
);

check(
  "a version 7 schema gains the context columns: its entries still verify, and a context and a batch's contexts are stored, chained and read",
  async (t) => {
    const name = schema();
    const keys = auditTestKeys();
    const before = await open({ schema: name, chain: testChain('gw', keys) });
    const old = auditRecord({ operation: 'crypto.sign', object: 'dGFnLW9uZQ==', version: 1, keyType: 'ed25519', alg: 'EdDSA' });
    await before.append(old);
    await before.close();
    // Back to version 7: without the three columns, its view as migration 7 made it.
    const client = new pg.Client({ connectionString: postgres.url! });
    await client.connect();
    const s = `"${name}"`;
    await client.query(`DROP VIEW ${s}.audit_record;
    ALTER TABLE ${s}.audit_entry DROP COLUMN context, DROP COLUMN contexts, DROP COLUMN contexts_omitted;
    ${foldedRecordView(`${s}.audit_entry`, `${s}.audit_record`, { withContext: false })};
    UPDATE ${s}.keygate_audit_schema_version SET version = 7;`);
    await client.end();

    const after = await open({ schema: name, chain: testChain('gw', keys) });
    t.teardown(() => after.close());
    const single = auditRecord({ operation: 'crypto.encrypt', object: 'dGFnLW9uZQ==', version: 1, context: { tenant: 'acme' } });
    const batch = auditRecord({
      operation: 'crypto.decrypt',
      items: 3,
      failures: 0,
      contexts: [{ tenant: 'acme' }, { tenant: 'b' }],
      contextsOmitted: 1,
    });
    await after.append(single);
    await after.append(batch);
    t.deepEqual(await after.get(old.id), old);
    t.deepEqual(await after.get(single.id), single);
    t.deepEqual(await after.get(batch.id), batch);
    const slice = await after.readChain();
    t.is(slice.entries.length, 3);
    t.is(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, undefined);
  },
);
