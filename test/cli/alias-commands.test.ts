import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { untilKillAll } from '../_support/child-processes.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';

/** `keygate aliases list|set|delete` (docs/spec.md §4.23 item 3), through the real binary and a gateway process. */
const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'keygate-cli-aliases-'));
const adminPasswordFile = join(dir, 'admin-password');
writeFileSync(adminPasswordFile, 'cli-admin-password-1\n', { mode: 0o600 });
const gateway = await spawnGateway(untilKillAll, {
  TE_KEYSERVER_ADMIN_PASSWORD_FILE: adminPasswordFile,
  TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'data-')),
});
test.after.always(killAllGateways);

function keygate(args: readonly string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, KEYGATE_URL: gateway.url, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end('');
  });
}

test('aliases set, list, use by alias/NAME, move and delete through the real keygate binary', async (t) => {
  const login = await keygate(['login', '--user', 'admin', '--password-file', adminPasswordFile]);
  t.is(login.status, 0, login.stderr);
  const sessionFile = join(dir, 'session');
  writeFileSync(sessionFile, `${login.stdout.trim()}\n`, { mode: 0o600 });
  const env = { KEYGATE_SESSION_FILE: sessionFile };
  // Calls that do not depend on each other run at once: each is a process of its own.
  const [first, second] = (await Promise.all([keygate(['keys', 'create', '--json'], env), keygate(['keys', 'create', '--json'], env)])).map(
    (reply) => JSON.parse(reply.stdout) as { ttag: string },
  );

  const set = await keygate(['aliases', 'set', 'orders', first.ttag], env);
  t.is(set.status, 0, set.stderr);
  t.is(set.stdout, `orders -> ${first.ttag}\n`);
  const shown = await keygate(['keys', 'show', 'alias/orders', '--json'], env);
  t.is(shown.status, 0, shown.stderr);
  t.is(JSON.parse(shown.stdout).ttag, first.ttag);

  const moves = await Promise.all([
    keygate(['aliases', 'set', 'orders', second.ttag], env),
    keygate(['aliases', 'set', 'other', second.ttag], env),
  ]);
  t.deepEqual(
    moves.map((reply) => reply.status),
    [0, 0],
  );
  const out = join(dir, 'key.bin');
  const [listed, prefixed, exported, usage] = await Promise.all([
    keygate(['aliases', 'list', '--json'], env),
    keygate(['aliases', 'list', '--prefix', 'ord'], env),
    keygate(['keys', 'export', 'alias/orders', '--out', out], env),
    keygate(['aliases', 'set', 'orders'], env),
  ]);
  t.deepEqual(
    (JSON.parse(listed.stdout) as { alias: string; ttag: string }[]).map(({ alias, ttag }) => [alias, ttag]),
    [
      ['orders', second.ttag],
      ['other', second.ttag],
    ],
  );
  t.regex(prefixed.stdout, /^ALIAS\s+TTAG\s+UPDATED\norders\s+\S+\s+\S+\n$/);
  t.is(exported.status, 0);
  t.is(readFileSync(out).length, 16);

  t.is((await keygate(['aliases', 'delete', 'orders'], env)).stdout, 'deleted orders\n');
  const gone = await keygate(['keys', 'show', 'alias/orders'], env);
  t.not(gone.status, 0);
  t.regex(gone.stderr, /NOT_FOUND/);
  t.not(usage.status, 0);
  t.regex(usage.stderr, /ALIAS TTAG are required/);
});
