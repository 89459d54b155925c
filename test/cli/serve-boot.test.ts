import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { generatedPasswords, login } from '../_support/first-start.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { scratchDir } from '../_support/scratch-dirs.js';

test.after.always(killAllGateways);

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
    const dataDir = join(scratchDir('keygate-bad-master-'), 'data');
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
  const root = scratchDir('keygate-bad-master-file-');
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
  const root = scratchDir('keygate-missing-master-file-');
  const dataDir = join(root, 'data');
  const result = serveRefused({ TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_MASTER_KEY_FILE: join(root, 'nowhere.key') });
  t.is(result.status, 2, result.stderr);
  t.regex(result.stderr, /^keygate: TE_KEYSERVER_MASTER_KEY_FILE: /);
  t.true(!existsSync(dataDir) || readdirSync(dataDir).length === 0);
});

/** The generated passwords `keygate serve` printed in its framed block. */
test('keygate serve says on stderr, before listening, that TE_KEYSERVER_ADMIN_PASSWORD is not applied once admin exists; the old password still works', async (t) => {
  const dataDir = scratchDir('keygate-admin-again-');
  const first = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir });
  const { admin } = generatedPasswords(first.output());
  t.truthy(admin, first.output());
  t.is(await first.stop(), 0);

  const second = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: 'a-new-admin-password' });
  const lines = second.output().split('\n');
  const warning = lines.findIndex((line) =>
    line.startsWith('keygate: warning: TE_KEYSERVER_ADMIN_PASSWORD is not applied: user admin already exists'),
  );
  t.not(warning, -1, second.output());
  t.true(warning < lines.findIndex((line) => line.startsWith('keygate: listening ')), 'said before listening');
  t.false(second.output().includes('a-new-admin-password'), 'the password is never echoed');
  t.is(await login(second.url, 'admin', admin!), 201, 'the old password still works');
  t.is(await login(second.url, 'admin', 'a-new-admin-password'), 401);
  t.is(await second.stop(), 0);
  t.regex(second.output(), /"level":"?(40|warn)"?.*TE_KEYSERVER_ADMIN_PASSWORD is not applied/, 'and in the log');
});

test('keygate serve: on a first start every warning comes before the listening line, and the generated passwords are one complete block', async (t) => {
  const gateway = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: scratchDir('keygate-first-boot-') });
  const lines = gateway.output().split('\n');
  const listening = lines.findIndex((line) => line.startsWith('keygate: listening '));
  t.true(
    lines.some((line) => /^keygate: warning: generated master key /.test(line)),
    `the generated master key is warned about on stderr: ${gateway.output()}`,
  );
  lines.forEach((line, index) => {
    if (line.startsWith('keygate: warning: ')) t.true(index < listening, `before listening: ${line}`);
  });
  const header = lines.indexOf('keygate: generated passwords (shown once):');
  t.true(header !== -1 && header < listening, gateway.output());
  t.regex(lines[header + 1]!, /^ {2}admin: \S{20,}$/);
  t.regex(lines[header + 2]!, /^ {2}guest: \S{20,}$/);
  t.deepEqual(Object.keys(generatedPasswords(gateway.output())).sort(), ['admin', 'guest']);
  t.is(await login(gateway.url, 'guest', generatedPasswords(gateway.output()).guest!), 201);
});
