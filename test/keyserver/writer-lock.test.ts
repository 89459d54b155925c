import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { storeLockFile, WriterLock } from '../../src/keyserver/at-rest/writer-lock.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const scratch = () => scratchDir('keygate-writer-lock-');

test('the holder file names this process while the lock is held, and goes with the release; the lock file stays', (t) => {
  const store = join(scratch(), 'ks.db');
  const lock = WriterLock.acquire(storeLockFile(store), '--data', store, new Date('2026-01-02T03:04:05.000Z'));
  t.teardown(() => lock.release());
  const holder = JSON.parse(readFileSync(`${store}.lock.holder`, 'utf8')) as Record<string, unknown>;
  t.like(holder, { pid: process.pid, since: '2026-01-02T03:04:05.000Z' });
  t.is(lock.conflict(), undefined);
  lock.release();
  lock.release();
  t.false(existsSync(`${store}.lock.holder`));
  t.true(existsSync(`${store}.lock`), 'never removed: a process still holding the old file would hold it beside a newcomer');
  const again = WriterLock.acquire(storeLockFile(store), '--data', store);
  again.release();
});

test('a second acquisition is refused naming the holder, or saying its file is missing', (t) => {
  const store = join(scratch(), 'ks.db');
  const lock = WriterLock.acquire(storeLockFile(store), '--data', store, new Date('2026-01-02T03:04:05.000Z'));
  t.teardown(() => lock.release());
  t.throws(() => WriterLock.acquire(storeLockFile(store), 'rotate-master-key', store), {
    name: 'ConfigError',
    message: new RegExp(
      `^rotate-master-key: ${store} is held by pid ${process.pid} on host \\S+ since 2026-01-02T03:04:05.000Z; one process writes a store at a time$`,
    ),
  });
  writeFileSync(`${store}.lock.holder`, 'not json');
  t.throws(() => WriterLock.acquire(storeLockFile(store), '--data', store), {
    message: /is held by another process \(its holder file .* is missing or unreadable\)/,
  });
});

test('a lock file replaced under the holder is a conflict naming the newcomer, and stays one', (t) => {
  const dir = scratch();
  const store = join(dir, 'ks.db');
  const lock = WriterLock.acquire(storeLockFile(store), '--data', store);
  t.teardown(() => lock.release());
  renameSync(`${store}.lock`, join(dir, 'moved-away'));
  const newcomer = WriterLock.acquire(storeLockFile(store), '--data', store, new Date('2026-03-04T05:06:07.000Z'));
  t.teardown(() => newcomer.release());
  t.regex(
    lock.conflict() ?? '',
    new RegExp(
      `^writer lock ${store}\\.lock was replaced under this process; now held by pid ${process.pid} on host \\S+ since 2026-03-04T05:06:07.000Z$`,
    ),
  );
  t.is(newcomer.conflict(), undefined, 'the newcomer holds the file on disk');
  const first = lock.conflict();
  t.is(lock.conflict(), first);
});

test('a lock file that is not a SQLite database stops the acquisition with one line naming it', (t) => {
  const store = join(scratch(), 'ks.db');
  writeFileSync(`${store}.lock`, 'x'.repeat(4096));
  t.throws(() => WriterLock.acquire(storeLockFile(store), '--data', store), {
    name: 'ConfigError',
    message: new RegExp(`^--data: writer lock ${store}\\.lock: `),
  });
});
