import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { foldedRecordView } from '../../../src/adapters/audit-log/audit-sql.js';
import { AUDIT_PAGE_CACHE_KIB, SqliteAuditLog } from '../../../src/adapters/audit-log/sqlite-audit-log.js';
import { verifyAuditLog } from '../../../src/domain/audit/audit-verify.js';
import { auditTestKeys, testChain, trusted } from '../../_support/audit-chain.js';
import { scratchDir } from '../../_support/scratch-dirs.js';
import { auditRecord } from '../../ports/audit-log.contract.js';

const dir = scratchDir('keygate-sqlite-audit-');

/** The context columns of version 8 (docs/spec.md §9.1 `context`, `contexts`, `contextsOmitted`), dropped to take a file back before it. */
const DROP_CONTEXT =
  'ALTER TABLE audit_entry DROP COLUMN context; ALTER TABLE audit_entry DROP COLUMN contexts; ALTER TABLE audit_entry DROP COLUMN contexts_omitted;';

/** The signing columns of version 7 (docs/spec.md §9.1 `keyType`, `alg`, `kid`) and those after, dropped to take a file back before it. */
const DROP_SIGNING = `${DROP_CONTEXT}
  ALTER TABLE audit_entry DROP COLUMN key_type; ALTER TABLE audit_entry DROP COLUMN alg; ALTER TABLE audit_entry DROP COLUMN kid;`;

/** Takes a file of the current schema back to version 4 (before the batch's keys columns). */
const AS_VERSION_4 = `DROP VIEW audit_record; ${DROP_SIGNING} ALTER TABLE audit_entry DROP COLUMN alias;
  ALTER TABLE audit_entry DROP COLUMN keys; ALTER TABLE audit_entry DROP COLUMN keys_omitted;
  CREATE VIEW audit_record AS SELECT p.id AS id, p.at AS at, p.request_id AS request_id, COALESCE(o.principal, p.principal) AS principal,
    COALESCE(o.session_ref, p.session_ref) AS session_ref, p.operation AS operation, COALESCE(o.object, p.object) AS object,
    COALESCE(o.outcome, p.outcome) AS outcome, COALESCE(o.status, p.status) AS status, COALESCE(o.code, p.code) AS code,
    COALESCE(o.client_address, p.client_address) AS client_address, COALESCE(o.acting_for, p.acting_for) AS acting_for,
    COALESCE(o.version, p.version) AS version, COALESCE(o.items, p.items) AS items, COALESCE(o.failures, p.failures) AS failures
    FROM audit_entry p LEFT JOIN audit_entry o ON o.id = p.id AND o.entry = 'outcome' WHERE p.entry <> 'outcome';`;

/** Takes a file of the current schema back to version 3 (before the version, items and failures columns). */
const AS_VERSION_3 = `DROP VIEW audit_record; ${DROP_SIGNING} ALTER TABLE audit_entry DROP COLUMN alias;
  ALTER TABLE audit_entry DROP COLUMN keys; ALTER TABLE audit_entry DROP COLUMN keys_omitted;
  ALTER TABLE audit_entry DROP COLUMN version; ALTER TABLE audit_entry DROP COLUMN items; ALTER TABLE audit_entry DROP COLUMN failures;
  CREATE VIEW audit_record AS SELECT p.id AS id, p.at AS at, p.request_id AS request_id, COALESCE(o.principal, p.principal) AS principal,
    COALESCE(o.session_ref, p.session_ref) AS session_ref, p.operation AS operation, COALESCE(o.object, p.object) AS object,
    COALESCE(o.outcome, p.outcome) AS outcome, COALESCE(o.status, p.status) AS status, COALESCE(o.code, p.code) AS code,
    COALESCE(o.client_address, p.client_address) AS client_address, COALESCE(o.acting_for, p.acting_for) AS acting_for
    FROM audit_entry p LEFT JOIN audit_entry o ON o.id = p.id AND o.entry = 'outcome' WHERE p.entry <> 'outcome';`;

test('creates the file and its directory, private, in WAL mode, at schema version 8', async (t) => {
  const file = join(dir, 'fresh', 'nested', 'audit.db');
  const log = SqliteAuditLog.open({ file });
  await log.close();
  t.is(statSync(file).mode & 0o777, 0o600);
  const db = new Database(file, { readonly: true });
  t.is(db.pragma('journal_mode', { simple: true }), 'wal');
  t.is(db.pragma('user_version', { simple: true }), 8);
  db.close();
});

test("bounds its page cache to SQLite's default 2,000 KiB, not the 16,000 KiB better-sqlite3 builds in", async (t) => {
  const log = SqliteAuditLog.open({ file: join(dir, 'page-cache.db') });
  t.teardown(() => log.close());
  t.is(log.pageCacheKiB(), AUDIT_PAGE_CACHE_KIB);
  t.is(AUDIT_PAGE_CACHE_KIB, 2_000);
});

test('a reopened file keeps its records and is not migrated again', async (t) => {
  const file = join(dir, 'reopen.db');
  const record = auditRecord();
  const first = SqliteAuditLog.open({ file });
  await first.append(record);
  await first.close();
  const second = SqliteAuditLog.open({ file });
  t.deepEqual(await second.get(record.id), record);
  t.deepEqual((await second.query({})).items, [record]);
  await second.close();
});

test('a database from a newer keygate is refused at open, naming its version', (t) => {
  const file = join(dir, 'newer.db');
  const db = new Database(file);
  db.pragma('user_version = 9');
  db.close();
  t.throws(() => SqliteAuditLog.open({ file }), { code: 'AUDIT_UNAVAILABLE', message: /version 9/ } as never);
});

test('a path that cannot hold a database is AuditUnavailableError at open', (t) => {
  const notAFile = join(dir, 'a-directory');
  mkdirSync(notAFile);
  t.throws(() => SqliteAuditLog.open({ file: notAFile }), { code: 'AUDIT_UNAVAILABLE' } as never);
});

test('writes issued together are committed together; a duplicate id fails its own append alone', async (t) => {
  const log = SqliteAuditLog.open({ file: join(dir, 'group.db') });
  const first = auditRecord({ outcome: 'pending', status: 0 });
  const second = auditRecord();
  const results = await Promise.allSettled([
    log.append(first),
    log.append({ ...first, principal: 'mallory' }),
    log.append(second),
    log.complete(first.id, { outcome: 'ok', status: 200 }),
  ]);
  t.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
  );
  t.like((results[1] as PromiseRejectedResult).reason, { code: 'CONFLICT' });
  t.is((results[3] as PromiseFulfilledResult<boolean>).value, true);
  t.like(await log.get(first.id), { principal: 'alice', outcome: 'ok', status: 200 });
  t.truthy(await log.get(second.id));
  await log.close();
});

test('a commit that fails rejects every write in it with AUDIT_UNAVAILABLE and stores none of them', async (t) => {
  const file = join(dir, 'failing.db');
  const log = SqliteAuditLog.open({ file });
  // A trigger that rolls the whole transaction back mid-commit, as a failing disk would.
  const other = new Database(file);
  other.exec(
    "CREATE TRIGGER break_commit BEFORE INSERT ON audit_entry WHEN NEW.principal = 'boom' BEGIN SELECT RAISE(ROLLBACK, 'disk says no'); END;",
  );
  const doomed = [auditRecord(), auditRecord({ principal: 'boom' }), auditRecord()];
  const results = await Promise.allSettled(doomed.map((record) => log.append(record)));
  t.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected', 'rejected'],
  );
  for (const result of results) t.like((result as PromiseRejectedResult).reason, { code: 'AUDIT_UNAVAILABLE' });
  for (const record of doomed) t.is(await log.get(record.id), undefined);
  other.exec('DROP TRIGGER break_commit');
  other.close();
  await log.append(auditRecord());
  t.is((await log.query({})).items.length, 1, 'the log works again');
  await log.close();
});

test('close commits the writes still queued before it closes', async (t) => {
  const file = join(dir, 'closing.db');
  const log = SqliteAuditLog.open({ file });
  const record = auditRecord();
  const appended = log.append(record);
  await log.close();
  await t.notThrowsAsync(appended);
  const reopened = SqliteAuditLog.open({ file });
  t.deepEqual(await reopened.get(record.id), record);
  await reopened.close();
});

test('two processes writing as one writer: the second to take a seq fails closed, and the chain stays whole', async (t) => {
  const file = join(dir, 'one-writer.db');
  const keys = auditTestKeys();
  const [a, b] = [SqliteAuditLog.open({ file, chain: testChain('gw', keys) }), SqliteAuditLog.open({ file, chain: testChain('gw', keys) })];
  await a.append(auditRecord());
  await b.append(auditRecord());
  await t.throwsAsync(a.append(auditRecord()), { code: 'AUDIT_UNAVAILABLE' } as never);
  await a.append(auditRecord());
  const slice = await a.readChain();
  t.deepEqual(
    slice.entries.map((e) => e.seq),
    [1, 2, 3],
  );
  t.true(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).ok);
  await a.close();
  await b.close();
});

test('a version 1 file is migrated: its records stay readable, as entries without chain fields', async (t) => {
  const file = join(dir, 'version-1.db');
  const db = new Database(file);
  db.exec(`CREATE TABLE audit_record (id TEXT PRIMARY KEY NOT NULL, at INTEGER NOT NULL, request_id TEXT NOT NULL, principal TEXT,
    session_ref TEXT, operation TEXT NOT NULL, object TEXT, outcome TEXT NOT NULL, status INTEGER NOT NULL, code TEXT) STRICT`);
  const old = auditRecord();
  const stuck = auditRecord({ outcome: 'pending', status: 0 });
  for (const r of [old, stuck]) {
    db.prepare('INSERT INTO audit_record VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)').run(
      r.id,
      r.at,
      r.requestId,
      r.principal,
      r.sessionRef,
      r.operation,
      r.object,
      r.outcome,
      r.status,
    );
  }
  db.pragma('user_version = 1');
  db.close();
  const log = SqliteAuditLog.open({ file, chain: testChain('gw', auditTestKeys()) });
  t.deepEqual(await log.get(old.id), old);
  t.true(await log.complete(stuck.id, { outcome: 'ok', status: 200 }), 'a record left pending can still get its outcome');
  const { entries } = await log.readChain();
  t.deepEqual(entries.map((e) => [e.entry, e.writer]).sort(), [
    ['outcome', 'gw'],
    ['pending', undefined],
    ['record', undefined],
  ]);
  await log.close();
});

test('a version 2 file gains public hashes at open only for the entries whose MAC verifies; an entry edited before is still reported', async (t) => {
  const file = join(dir, 'version-2.db');
  const keys = auditTestKeys();
  const before = SqliteAuditLog.open({ file, chain: testChain('gw', keys, { checkpointEvery: 100 }) });
  for (let i = 0; i < 5; i += 1) await before.append(auditRecord());
  await before.close();
  const raw = new Database(file);
  raw.exec(
    `${AS_VERSION_3} ALTER TABLE audit_entry DROP COLUMN hash; ALTER TABLE audit_checkpoint DROP COLUMN hash; PRAGMA user_version = 2;`,
  );
  // Edited before the migration, by someone without the key: its MAC no longer holds.
  raw.prepare("UPDATE audit_entry SET outcome = 'denied' WHERE writer = 'gw' AND seq = 3").run();
  raw.close();

  const after = SqliteAuditLog.open({ file, chain: testChain('gw', keys, { checkpointEvery: 1 }) });
  await after.append(auditRecord());
  const slice = await after.readChain();
  await after.close();
  t.deepEqual(
    slice.entries.map((e) => [e.seq, e.hash === undefined]),
    [
      [1, false],
      [2, false],
      [3, true],
      [4, true],
      [5, true],
      [6, false],
    ],
  );
  // Without the key too: a hash missing after hashed entries marks where the migration found a bad MAC.
  t.like(verifyAuditLog({ ...slice, publicKeys: trusted(keys) }).firstBreak, { seq: 3, kind: 'edited' });
  t.like(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, { seq: 3, kind: 'edited' });
});

test('a version 3 file gains the version, items and failures columns: its entries still verify, and the new fields are stored, chained and read', async (t) => {
  const file = join(dir, 'version-3.db');
  const keys = auditTestKeys();
  const before = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  for (let i = 0; i < 3; i += 1) await before.append(auditRecord());
  await before.close();
  const raw = new Database(file);
  raw.exec(`${AS_VERSION_3} PRAGMA user_version = 3;`);
  raw.close();

  const after = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  t.teardown(() => after.close());
  const batch = auditRecord({ operation: 'crypto.encrypt', version: 2, items: 100, failures: 3 });
  const pending = auditRecord({ operation: 'keys.rotate', outcome: 'pending', status: 0 });
  await after.append(batch);
  await after.append(pending);
  t.true(await after.complete(pending.id, { outcome: 'ok', status: 200, version: 4 }));
  t.deepEqual(await after.get(batch.id), batch);
  t.like(await after.get(pending.id), { outcome: 'ok', version: 4 });
  const slice = await after.readChain();
  t.is(slice.entries.length, 6);
  t.is(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, undefined);
});

test("a version 4 file gains a batch's keys columns: its entries still verify, and keys are stored, chained and read", async (t) => {
  const file = join(dir, 'version-4.db');
  const keys = auditTestKeys();
  const before = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  await before.append(auditRecord({ operation: 'crypto.decrypt', version: 2, items: 2, failures: 0 }));
  await before.close();
  const raw = new Database(file);
  raw.exec(`${AS_VERSION_4} PRAGMA user_version = 4;`);
  raw.close();

  const after = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  t.teardown(() => after.close());
  const batch = auditRecord({
    operation: 'crypto.decrypt',
    items: 40,
    failures: 1,
    keys: [{ ttag: 'dGFnLW9uZQ==', version: 1 }, { ttag: 'dGFnLXR3bw==' }],
    keysOmitted: 3,
  });
  await after.append(batch);
  t.deepEqual(await after.get(batch.id), batch);
  const slice = await after.readChain();
  t.is(slice.entries.length, 2);
  t.is(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, undefined);
});

/** A file as schema version 5 left it: without the `alias` column (docs/spec.md §9.1), its view without it. */
const AS_VERSION_5 = `DROP VIEW audit_record; ${DROP_SIGNING} ALTER TABLE audit_entry DROP COLUMN alias;
  CREATE VIEW audit_record AS SELECT p.id AS id, p.at AS at, p.request_id AS request_id, COALESCE(o.principal, p.principal) AS principal,
    COALESCE(o.session_ref, p.session_ref) AS session_ref, p.operation AS operation, COALESCE(o.object, p.object) AS object,
    COALESCE(o.outcome, p.outcome) AS outcome, COALESCE(o.status, p.status) AS status, COALESCE(o.code, p.code) AS code,
    COALESCE(o.client_address, p.client_address) AS client_address, COALESCE(o.acting_for, p.acting_for) AS acting_for,
    COALESCE(o.version, p.version) AS version, COALESCE(o.items, p.items) AS items, COALESCE(o.failures, p.failures) AS failures,
    COALESCE(o.keys, p.keys) AS keys, COALESCE(o.keys_omitted, p.keys_omitted) AS keys_omitted
    FROM audit_entry p LEFT JOIN audit_entry o ON o.id = p.id AND o.entry = 'outcome' WHERE p.entry <> 'outcome';`;

test('a version 5 file gains the alias column: its entries still verify, and an alias is stored, chained and read', async (t) => {
  const file = join(dir, 'version-5.db');
  const keys = auditTestKeys();
  const before = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  await before.append(auditRecord({ operation: 'crypto.decrypt', keys: [{ ttag: 'dGFnLW9uZQ==', version: 1 }] }));
  await before.close();
  const raw = new Database(file);
  raw.exec(`${AS_VERSION_5} PRAGMA user_version = 5;`);
  raw.close();

  const after = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  t.teardown(() => after.close());
  const aliased = auditRecord({ operation: 'crypto.encrypt', object: 'dGFnLW9uZQ==', alias: 'billing', version: 1 });
  await after.append(aliased);
  t.deepEqual(await after.get(aliased.id), aliased);
  const slice = await after.readChain();
  t.is(slice.entries.length, 2);
  t.is(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, undefined);
});

/** A file as schema version 6 left it: without the signing columns (docs/spec.md §9.1), its view without them. */
const AS_VERSION_6 = `DROP VIEW audit_record; ${DROP_SIGNING}
  CREATE VIEW audit_record AS SELECT p.id AS id, p.at AS at, p.request_id AS request_id, COALESCE(o.principal, p.principal) AS principal,
    COALESCE(o.session_ref, p.session_ref) AS session_ref, p.operation AS operation, COALESCE(o.object, p.object) AS object,
    COALESCE(o.outcome, p.outcome) AS outcome, COALESCE(o.status, p.status) AS status, COALESCE(o.code, p.code) AS code,
    COALESCE(o.client_address, p.client_address) AS client_address, COALESCE(o.acting_for, p.acting_for) AS acting_for,
    COALESCE(o.version, p.version) AS version, COALESCE(o.items, p.items) AS items, COALESCE(o.failures, p.failures) AS failures,
    COALESCE(o.keys, p.keys) AS keys, COALESCE(o.keys_omitted, p.keys_omitted) AS keys_omitted, COALESCE(o.alias, p.alias) AS alias
    FROM audit_entry p LEFT JOIN audit_entry o ON o.id = p.id AND o.entry = 'outcome' WHERE p.entry <> 'outcome';`;

test("a version 6 file gains the signing columns: its entries still verify, and a key's type, alg and kid are stored, chained and read", async (t) => {
  const file = join(dir, 'version-6.db');
  const keys = auditTestKeys();
  const before = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  const old = auditRecord({ operation: 'crypto.encrypt', object: 'dGFnLW9uZQ==', alias: 'billing', version: 1 });
  await before.append(old);
  await before.close();
  const raw = new Database(file);
  raw.exec(`${AS_VERSION_6} PRAGMA user_version = 6;`);
  raw.close();

  const after = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  t.teardown(() => after.close());
  const signed = auditRecord({
    operation: 'crypto.sign',
    object: 'dGFnLW9uZQ==',
    version: 1,
    keyType: 'ed25519',
    alg: 'EdDSA',
    kid: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
  });
  await after.append(signed);
  t.deepEqual(await after.get(old.id), old);
  t.deepEqual(await after.get(signed.id), signed);
  const slice = await after.readChain();
  t.is(slice.entries.length, 2);
  t.is(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, undefined);
});

/** A file as schema version 7 left it: without the context columns (docs/spec.md §9.1), its view without them. */
const AS_VERSION_7 = `DROP VIEW audit_record; ${DROP_CONTEXT}
  ${foldedRecordView('audit_entry', 'audit_record', { withContext: false })};`;

test("a version 7 file gains the context columns: its entries still verify, and a context and a batch's contexts are stored, chained and read", async (t) => {
  const file = join(dir, 'version-7.db');
  const keys = auditTestKeys();
  const before = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
  const old = auditRecord({ operation: 'crypto.sign', object: 'dGFnLW9uZQ==', version: 1, keyType: 'ed25519', alg: 'EdDSA' });
  await before.append(old);
  await before.close();
  const raw = new Database(file);
  raw.exec(`${AS_VERSION_7} PRAGMA user_version = 7;`);
  raw.close();

  const after = SqliteAuditLog.open({ file, chain: testChain('gw', keys) });
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
});
