import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { turnBatchedDestination } from '../../../src/adapters/logger/turn-batched-destination.js';

function tempFile(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'out.log');
}

test('the lines of one event-loop turn are written together at its end, in order', async (t) => {
  const file = tempFile(t);
  const destination = turnBatchedDestination(file);
  destination.write('one\n');
  destination.write('two\n');
  destination.write('three\n');
  t.is(readFileSync(file, 'utf8'), '', 'held until the turn ends');
  await new Promise((done) => setImmediate(done));
  t.is(readFileSync(file, 'utf8'), 'one\ntwo\nthree\n');
  destination.write('four\n');
  await new Promise((done) => setImmediate(done));
  t.is(readFileSync(file, 'utf8'), 'one\ntwo\nthree\nfour\n', 'a quiet process still writes each line within its turn');
});

test('a process that exits in the turn it logged in, or dies of an uncaught exception, still writes its lines', (t) => {
  const file = tempFile(t);
  const module = new URL('../../../src/adapters/logger/turn-batched-destination.ts', import.meta.url).pathname;
  for (const [end, status] of [
    ['process.exit(3);', 3],
    ["throw new Error('boom');", 1],
  ] as const) {
    rmSync(file, { force: true });
    const code = `import { turnBatchedDestination } from ${JSON.stringify(module)}; const d = turnBatchedDestination(${JSON.stringify(file)}); d.write('last words\\n'); ${end}`;
    const child = spawnSync(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', code], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    t.is(child.status, status, child.stderr);
    t.is(readFileSync(file, 'utf8'), 'last words\n', end);
  }
});
