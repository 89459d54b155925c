import { rmSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { MemoryLogger } from '../../../src/adapters/logger/memory-logger.js';
import { SqliteWriterLocks } from '../../../src/adapters/writer-locks/sqlite-writer-locks.js';
import { directoryLockFile, storeLockFile } from '../../../src/keyserver/at-rest/writer-lock.js';
import { scratchDir } from '../../_support/scratch-dirs.js';

test('a conflict answers which store in public words, logs its details once, and stays', (t) => {
  const dir = scratchDir('keygate-writer-locks-');
  const logger = new MemoryLogger();
  const locks = new SqliteWriterLocks(() => Date.parse('2026-01-02T03:04:05.000Z'), logger);
  t.teardown(() => locks.close());
  locks.hold(directoryLockFile(dir), 'TE_GATEWAY_DATA_DIR', dir);
  locks.hold(storeLockFile(join(dir, 'audit.db')), 'audit database', join(dir, 'audit.db'));
  t.is(locks.conflict(), undefined);
  rmSync(join(dir, 'audit.db.lock'));
  const expected = "audit database: the store's writer lock was removed or replaced; another process may write it";
  t.is(locks.conflict(), expected);
  t.false(expected.includes(dir));
  t.is(locks.conflict(), expected);
  const logged = logger.lines.filter((line) => line.level === 'error');
  t.is(logged.length, 1);
  t.like(logged[0]?.fields, {
    store: join(dir, 'audit.db'),
    detail: `writer lock ${join(dir, 'audit.db.lock')} was removed under this process`,
  });
});

test('close releases every lock: another holder may then take them', (t) => {
  const dir = scratchDir('keygate-writer-locks-close-');
  const first = new SqliteWriterLocks(Date.now, new MemoryLogger());
  first.hold(directoryLockFile(dir), 'TE_GATEWAY_DATA_DIR', dir);
  const second = new SqliteWriterLocks(Date.now, new MemoryLogger());
  t.teardown(() => (first.close(), second.close()));
  t.throws(() => second.hold(directoryLockFile(dir), 'TE_GATEWAY_DATA_DIR', dir), { message: /is held by pid/ });
  first.close();
  first.close();
  t.notThrows(() => second.hold(directoryLockFile(dir), 'TE_GATEWAY_DATA_DIR', dir));
});
