import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;

/** `keygate serve` with `env` that must refuse to start: its exit status and its stderr. */
function serveRefused(env: Record<string, string>): { status: number | null; stderr: string; stdout: string } {
  const child = spawnSync(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, TE_GATEWAY_HOST: '127.0.0.1', TE_GATEWAY_PORT: '0', TE_GATEWAY_LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 45_000,
  });
  return { status: child.status, stderr: child.stderr, stdout: child.stdout };
}

const BAD_MASTER_KEYS = [
  ['too short', 'c2hvcnQta2V5'],
  ['not base64', 'not base64 at all, not even close!!!!!!!!!!!'],
  ['a bad second key', `${Buffer.alloc(32, 7).toString('base64')},c2hvcnQta2V5`],
] as const;

for (const [what, key] of BAD_MASTER_KEYS) {
  test(`keygate serve refuses a bad TE_KEYSERVER_MASTER_KEY (${what}) with exit 2 before writing anything`, (t) => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'keygate-bad-master-')), 'data');
    const result = serveRefused({ TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_MASTER_KEY: key });
    t.is(result.status, 2, result.stderr);
    const lines = result.stderr.trim().split('\n');
    t.is(lines.length, 1, result.stderr);
    t.regex(lines[0]!, /^keygate: TE_KEYSERVER_MASTER_KEY: /);
    for (const part of key.split(',')) t.false(result.stderr.includes(part), 'the key is never echoed');
    t.true(
      !existsSync(dataDir) || readdirSync(dataDir).length === 0,
      `the data directory is left empty: ${existsSync(dataDir) ? readdirSync(dataDir).join(', ') : ''}`,
    );
  });
}

test('keygate serve refuses a TE_KEYSERVER_MASTER_KEY_FILE that holds no valid key, before writing anything', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'keygate-bad-master-file-'));
  const file = join(root, 'master.key');
  writeFileSync(file, 'c2hvcnQta2V5\n');
  const dataDir = join(root, 'data');
  const result = serveRefused({ TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_MASTER_KEY_FILE: file });
  t.is(result.status, 2, result.stderr);
  t.is(result.stderr.trim().split('\n').length, 1, result.stderr);
  t.regex(result.stderr, /^keygate: TE_KEYSERVER_MASTER_KEY_FILE: /);
  t.false(result.stderr.includes('c2hvcnQta2V5'));
  t.true(!existsSync(dataDir) || readdirSync(dataDir).length === 0);
});

test('keygate serve refuses a TE_KEYSERVER_MASTER_KEY_FILE that does not exist, before writing anything', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'keygate-missing-master-file-'));
  const dataDir = join(root, 'data');
  const result = serveRefused({ TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_MASTER_KEY_FILE: join(root, 'nowhere.key') });
  t.is(result.status, 2, result.stderr);
  t.regex(result.stderr, /^keygate: TE_KEYSERVER_MASTER_KEY_FILE: /);
  t.true(!existsSync(dataDir) || readdirSync(dataDir).length === 0);
});
