import test from 'ava';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteAuditLog } from '../../../src/adapters/audit-log/sqlite-audit-log.js';
import { auditRecord } from '../../ports/audit-log.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'keygate-sqlite-audit-'));

test('creates the file and its directory, private, in WAL mode, at schema version 1', async (t) => {
  const file = join(dir, 'fresh', 'nested', 'audit.db');
  const log = SqliteAuditLog.open({ file });
  await log.close();
  t.is(statSync(file).mode & 0o777, 0o600);
  const db = new Database(file, { readonly: true });
  t.is(db.pragma('journal_mode', { simple: true }), 'wal');
  t.is(db.pragma('user_version', { simple: true }), 1);
  db.close();
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
  db.pragma('user_version = 7');
  db.close();
  t.throws(() => SqliteAuditLog.open({ file }), { code: 'AUDIT_UNAVAILABLE', message: /version 7/ } as never);
});

test('a path that cannot hold a database is AuditUnavailableError at open', (t) => {
  const notAFile = join(dir, 'a-directory');
  mkdirSync(notAFile);
  t.throws(() => SqliteAuditLog.open({ file: notAFile }), { code: 'AUDIT_UNAVAILABLE' } as never);
});
