import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { KeygateClient } from '../../src/client/index.js';
import { untilKillAll } from '../_support/child-processes.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const dir = scratchDir('keygate-cli-');
const adminPasswordFile = join(dir, 'admin-password');
writeFileSync(adminPasswordFile, 'cli-admin-password-1\n', { mode: 0o600 });
const bobPasswordFile = join(dir, 'bob-password');
writeFileSync(bobPasswordFile, 'cli-bob-password-2\n', { mode: 0o600 });

// One real gateway (`keygate serve`), its admin password given through a _FILE variable.
const dataDir = scratchDir('keygate-cli-data-');
const gateway = await spawnGateway(untilKillAll, { TE_KEYSERVER_ADMIN_PASSWORD_FILE: adminPasswordFile, TE_GATEWAY_DATA_DIR: dataDir });
test.after.always(killAllGateways);

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `keygate ...args` as an operator would, against the gateway (KEYGATE_URL from the environment);
 * its standard input is a pipe carrying `input` (empty by default), then closed.
 */
function keygate(args: readonly string[], env: Record<string, string> = {}, input = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, KEYGATE_URL: gateway.url, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

async function json<T = Record<string, unknown>>(args: readonly string[], env: Record<string, string> = {}): Promise<T> {
  const run = await keygate([...args, '--json'], env);
  if (run.status !== 0) throw new Error(`keygate ${args.join(' ')}: ${run.status} ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

const adminSession = (async () => {
  const run = await keygate(['login', '--user', 'admin', '--password-file', adminPasswordFile]);
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim();
})();

// One after another: each test starts several `keygate` processes (TypeScript loaded by tsx), and a
// dozen tests at once on two cores would only wait for each other.
test.serial('keygate --version prints the package version', async (t) => {
  const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const run = await keygate(['--version']);
  t.is(run.status, 0);
  t.is(run.stdout, `keygate ${version}\n`);
});

test.serial('every operator command answers --help with its usage, exit 0', async (t) => {
  const runs = await Promise.all(
    ['login', 'whoami', 'health', 'principals', 'groups', 'roles', 'keys', 'audit'].map((name) => keygate([name, '--help'])),
  );
  for (const [i, name] of ['login', 'whoami', 'health', 'principals', 'groups', 'roles', 'keys', 'audit'].entries()) {
    t.is(runs[i]!.status, 0, name);
    t.true(runs[i]!.stdout.startsWith(`Usage: keygate ${name}`), runs[i]!.stdout);
    t.regex(runs[i]!.stdout, /--json/);
  }
  t.regex((await keygate(['--help'])).stdout, /Operator commands[\s\S]*keys/);
});

test.serial('login (password from a file) and health, as text and JSON; the session id is never echoed elsewhere', async (t) => {
  const session = await adminSession;
  t.regex(session, /^\S{20,}$/);
  const health = await json<{ ok: boolean; checks: Record<string, string> }>(['health']);
  t.true(health.ok);
  t.is(health.checks.auditStore, 'ok');
  t.regex((await keygate(['health'])).stdout, /^ok: true$/m);
  const who = await keygate(['whoami', '--session', session]);
  t.is(who.status, 0);
  t.regex(who.stdout, /^admin /);
  t.false(who.stdout.includes(session));
});

test.serial('principals, groups and roles through the CLI', async (t) => {
  const session = await adminSession;
  const env = { KEYGATE_SESSION: session };
  const created = await json(['principals', 'create', 'cli-bob', '--kind', 'user', '--password-file', bobPasswordFile], env);
  t.like(created, { name: 'cli-bob', kind: 'user' });
  await json(['principals', 'create', 'cli-ops', '--kind', 'group'], env);
  await json(['principals', 'create', 'cli-team', '--kind', 'group'], env);
  t.true(
    (await json<{ items: { name: string }[] }>(['principals', 'list', '--limit', '500'], env)).items.some((p) => p.name === 'cli-bob'),
  );
  t.regex((await keygate(['principals', 'show', 'cli-bob'], env)).stdout, /cli-bob\s+user/);
  const groups = await json<{ items: { name: string; kind: string }[] }>(['groups', 'list', '--limit', '1000'], env);
  t.true(groups.items.some((g) => g.name === 'cli-ops'));
  t.deepEqual(
    groups.items.filter((g) => g.kind !== 'group'),
    [],
  );
  const firstPage = await keygate(['groups', 'list', '--limit', '1'], env);
  t.is(firstPage.status, 0, firstPage.stderr);
  const cursor = /^next: --cursor (\S+)$/m.exec(firstPage.stdout)?.[1];
  t.truthy(cursor, firstPage.stdout);
  const secondPage = await json<{ items: { name: string }[] }>(['groups', 'list', '--limit', '1', '--cursor', cursor!], env);
  t.deepEqual(
    secondPage.items.map((g) => g.name),
    [groups.items[1]!.name],
    'the cursor names the following page',
  );
  t.is((await keygate(['groups', 'add', 'cli-ops', 'cli-bob'], env)).status, 0);
  t.deepEqual(
    (await json<{ items: { name: string }[] }>(['groups', 'members', 'cli-ops'], env)).items.map((p) => p.name),
    ['cli-bob'],
  );
  t.true((await json<{ items: { name: string }[] }>(['roles', 'list'], env)).items.some((role) => role.name === 'auditor'));
  t.like(await json(['roles', 'show', 'auditor'], env), { name: 'auditor' });
  const bobLogin = await keygate(['login', '--user', 'cli-bob'], { KEYGATE_PASSWORD_FILE: bobPasswordFile });
  t.is(bobLogin.status, 0, bobLogin.stderr);
});

test.serial('keys: create, show, grant, acl, export to a file (0600, never over a file), revoke; then audit list and tail', async (t) => {
  const session = await adminSession;
  const sessionFile = join(dir, 'session');
  writeFileSync(sessionFile, `${session}\n`, { mode: 0o600 });
  const env = { KEYGATE_SESSION_FILE: sessionFile };
  const key = await json<{ ttag: string; keyLen: number }>(['keys', 'create', '--len', '32', '--label', 'cli'], env);
  t.is(key.keyLen, 32);
  t.regex((await keygate(['keys', 'show', key.ttag], env)).stdout, /256-bit\s+active\s+cli/);
  await json(['principals', 'create', 'cli-carol', '--kind', 'user'], env);
  t.like(await json(['keys', 'grant', key.ttag, 'cli-carol', 'read,export'], env), { principal: 'cli-carol' });
  t.regex((await keygate(['keys', 'acl', key.ttag], env)).stdout, /cli-carol\s+read,export/);
  // docs/spec.md §4.5b item 4: each --condition a member; a value may hold `=`; a malformed one is a usage error.
  t.deepEqual(
    await json(['keys', 'grant', key.ttag, 'cli-carol', 'encrypt', '--condition', 'tenant=acme', '--condition', 'sig=a=='], env),
    { principal: 'cli-carol', rights: ['encrypt'], conditions: { context: { tenant: 'acme', sig: 'a==' } } },
  );
  t.regex((await keygate(['keys', 'acl', key.ttag], env)).stdout, /cli-carol\s+encrypt when tenant=acme,sig=a==/);
  t.is((await keygate(['keys', 'grant', key.ttag, 'cli-carol', 'encrypt', '--condition', 'no-equals'], env)).status, 2);
  t.like(await json(['keys', 'grant', key.ttag, 'cli-carol', 'read,export'], env), { principal: 'cli-carol' });
  const out = join(dir, 'key.bin');
  const exported = await keygate(['keys', 'export', key.ttag, '--out', out], env);
  t.is(exported.status, 0, exported.stderr);
  t.is(readFileSync(out).length, 32);
  t.is(statSync(out).mode & 0o777, 0o600);
  t.false(exported.stdout.includes(readFileSync(out).toString('base64')), 'the key is never printed');
  const again = await keygate(['keys', 'export', key.ttag, '--out', out], env);
  t.is(again.status, 2);
  t.regex(again.stderr, /exists/);
  t.is((await keygate(['keys', 'revoke', key.ttag, 'cli-carol'], env)).status, 0);
  const page = await json<{ items: { operation: string; object?: string }[] }>(['audit', 'list', '--operation', 'keys.export'], env);
  t.true(page.items.length >= 1);
  const tail = await keygate(['audit', 'tail', '--limit', '3', '--json'], env);
  t.is(tail.status, 0, tail.stderr);
  t.is(tail.stdout.trim().split('\n').length, 3);
});

test.serial(
  'keys export checks its output before the key is released: an existing file or a missing folder exports nothing; --force leaves a 0600 file',
  async (t) => {
    const session = await adminSession;
    const env = { KEYGATE_SESSION: session };
    const key = await json<{ ttag: string }>(['keys', 'create', '--len', '16'], env);
    const exportsOfKey = async () =>
      (
        await json<{ items: { operation: string; object?: string }[] }>(
          ['audit', 'list', '--operation', 'keys.export', '--limit', '500'],
          env,
        )
      ).items.filter((entry) => entry.object?.includes(key.ttag)).length;
    const existing = join(dir, 'existing.bin');
    writeFileSync(existing, 'not a key', { mode: 0o644 });
    chmodSync(existing, 0o644);

    const refused = await keygate(['keys', 'export', key.ttag, '--out', existing], env);
    t.is(refused.status, 2);
    t.regex(refused.stderr, /exists/);
    t.is(readFileSync(existing, 'utf8'), 'not a key');
    const nowhere = await keygate(['keys', 'export', key.ttag, '--out', join(dir, 'no-such-folder', 'key.bin')], env);
    t.is(nowhere.status, 1, 'a file that cannot be written is a failure, not a usage error');
    t.regex(nowhere.stderr, /^keygate: keys export: cannot write .*nothing was exported\n$/);
    t.is(await exportsOfKey(), 0, 'neither refusal released the key');

    const forced = await keygate(['keys', 'export', key.ttag, '--out', existing, '--force'], env);
    t.is(forced.status, 0, forced.stderr);
    t.is(readFileSync(existing).length, 16);
    t.is(statSync(existing).mode & 0o777, 0o600, 'the replaced file is 0600, not the 0644 it was');
    t.deepEqual(
      readdirSync(dir).filter((name) => name.endsWith('.tmp')),
      [],
      'no staging file is left behind',
    );
    t.is(await exportsOfKey(), 1);
  },
);

test.serial(
  '--session on the command line works but warns once on stderr, naming the safer forms; the file and environment forms do not warn',
  async (t) => {
    const session = await adminSession;
    const sessionFile = join(dir, 'session-for-warning');
    writeFileSync(sessionFile, `${session}\n`, { mode: 0o600 });
    const onArgv = await keygate(['whoami', '--session', session]);
    t.is(onArgv.status, 0, onArgv.stderr);
    const warnings = onArgv.stderr.split('\n').filter((line) => line.startsWith('keygate: warning:'));
    t.is(warnings.length, 1);
    t.regex(warnings[0]!, /visible to other users/);
    t.regex(warnings[0]!, /--session-file/);
    t.regex(warnings[0]!, /KEYGATE_SESSION_FILE/);
    t.false(onArgv.stderr.includes(session), 'the warning never echoes the id');
    for (const run of [
      await keygate(['whoami', '--session-file', sessionFile]),
      await keygate(['whoami'], { KEYGATE_SESSION_FILE: sessionFile }),
      await keygate(['whoami'], { KEYGATE_SESSION: session }),
    ]) {
      t.is(run.status, 0, run.stderr);
      t.is(run.stderr, '');
    }
    const help = await keygate(['whoami', '--help']);
    t.regex(help.stdout, /--session-file FILE/);
    t.regex(help.stdout, /visible to other users/);
  },
);

test.serial(
  'refusals: no session is a usage error (2); a bad session is the gateway refusal (1) with its code; an unreachable gateway is one line',
  async (t) => {
    const none = await keygate(['keys', 'show', 'AAAA'], { KEYGATE_SESSION: '' });
    t.is(none.status, 2);
    t.regex(none.stderr, /no session/);
    const bad = await keygate(['whoami', '--json', '--session', 'not-a-session']);
    t.is(bad.status, 1);
    // The last line is the refusal; the one before it, the warning that --session is on the command line.
    t.like(JSON.parse(bad.stderr.trim().split('\n').at(-1)!), { error: { status: 401 } });
    t.false(bad.stderr.includes('not-a-session'));
    const down = await keygate(['health', '--url', 'http://127.0.0.1:1']);
    t.is(down.status, 1);
    t.regex(down.stderr, /cannot reach the gateway/);
    t.is((await keygate(['keys', 'frobnicate', 'x'], { KEYGATE_SESSION: 'x' })).status, 2);
    t.is((await keygate(['principals', '--bogus'])).status, 2);
  },
);

test.serial('an unknown command or a refused command line prints one line and a pointer to --help, never the whole usage', async (t) => {
  const unknown = await keygate(['frobnicate']);
  t.is(unknown.status, 2);
  t.is(unknown.stderr, 'keygate: unknown command "frobnicate"\nrun "keygate --help" for the usage\n');
  t.is(unknown.stdout, '');
  const badFlag = await keygate(['principals', '--bogus']);
  t.is(badFlag.status, 2);
  t.regex(badFlag.stderr, /^keygate: .*--bogus.*\nrun "keygate principals --help" for the usage\n$/);
  const badSub = await keygate(['keys', 'frobnicate', 'x'], { KEYGATE_SESSION: 'x' });
  t.is(badSub.status, 2);
  t.is(badSub.stderr, 'keygate: keys: unknown subcommand "frobnicate"\nrun "keygate keys --help" for the usage\n');
  const asJson = await keygate(['principals', '--bogus', '--json']);
  t.is(asJson.status, 2);
  t.like(JSON.parse(asJson.stderr), { error: { hint: 'run "keygate principals --help" for the usage' } });
});

test.serial('a refusal names its code once: a failed login is "401 CODE", not "401 CODE: CODE"', async (t) => {
  const wrong = join(dir, 'wrong-password');
  writeFileSync(wrong, 'not-the-password\n', { mode: 0o600 });
  const run = await keygate(['login', '--user', 'admin', '--password-file', wrong]);
  t.is(run.status, 1);
  const [line, ...more] = run.stderr.trimEnd().split('\n');
  t.deepEqual(more, []);
  const match = /^keygate: 401 ([A-Z_]+)(: .*)?$/.exec(line!);
  t.truthy(match, line);
  t.false(line!.includes(`${match![1]}: ${match![1]}`), line);
  const asJson = await keygate(['login', '--user', 'admin', '--password-file', wrong, '--json']);
  const error = (JSON.parse(asJson.stderr) as { error: { code: string; detail: string } }).error;
  t.false(error.detail.startsWith(`${error.code}:`), 'the JSON detail is the detail, not the code again');
});

test.serial('--json is accepted by every command, the offline audit ones included; their errors are JSON too', async (t) => {
  const session = await adminSession;
  await keygate(['health']);
  const verify = await keygate(['audit', 'verify', '--json', '--data-dir', dataDir]);
  t.is(verify.status, 0, verify.stderr);
  t.like(JSON.parse(verify.stdout), { ok: true });
  const exported = await keygate(['audit', 'export', '--format', 'jsonl', '--json', '--data-dir', dataDir]);
  t.is(exported.status, 0, exported.stderr);
  for (const line of exported.stdout.trim().split('\n')) t.notThrows(() => JSON.parse(line));
  const keys = await keygate(['audit', 'public-key', '--json', '--data-dir', dataDir]);
  t.is(keys.status, 0, keys.stderr);
  t.regex((JSON.parse(keys.stdout) as { keyId: string; pem: string }[])[0]!.pem, /BEGIN PUBLIC KEY/);
  const refused = await keygate(['audit', 'verify', '--json', '--from', 'yesterday', '--data-dir', dataDir]);
  t.is(refused.status, 2);
  t.like(JSON.parse(refused.stderr), { error: { detail: '--from: expected an ISO 8601 date-time' } });
  const env = { KEYGATE_SESSION: session };
  for (const argv of [
    ['whoami'],
    ['health'],
    ['principals', 'list'],
    ['groups', 'members', 'cli-json-none'],
    ['groups', 'list', '--limit', '0'],
    ['roles', 'list'],
    ['audit', 'list'],
  ]) {
    const run = await keygate([...argv, '--json'], env);
    t.not(run.status, 2, `${argv.join(' ')}: ${run.stderr}`);
    t.notThrows(() => JSON.parse(run.status === 0 ? run.stdout : run.stderr), argv.join(' '));
  }
});

test.serial('login with no password file nor variable reads the password from standard input (piped: its first line)', async (t) => {
  const piped = await keygate(['login', '--user', 'admin'], {}, 'cli-admin-password-1\nnext line\n');
  t.is(piped.status, 0, piped.stderr);
  t.regex(piped.stdout, /^\S{20,}\n$/);
  t.false(piped.stderr.includes('cli-admin-password-1'));
  const nothing = await keygate(['login', '--user', 'admin']);
  t.is(nothing.status, 2);
  t.regex(nothing.stderr, /^keygate: no password/);
});

const noScript = (() => {
  try {
    execFileSync('script', ['-qc', 'true', '/dev/null'], { stdio: 'ignore', timeout: 10_000 });
    return undefined;
  } catch {
    return 'no script(1) to give keygate a terminal (Debian package bsdutils)';
  }
})();

testUnless(noScript)('login on a terminal prompts "Password: " on stderr, echoes nothing, and honours Backspace', async (t) => {
  const command = [process.execPath, BIN, 'login', '--user', 'admin'].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['-qfc', command, '/dev/null'], {
    env: { ...process.env, KEYGATE_URL: gateway.url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  let output = '';
  const done = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    const before = output;
    output += chunk.toString('utf8');
    // Typed only once the prompt is up (raw mode on): a mistyped last character, erased, then Enter.
    if (!before.includes('Password: ') && output.includes('Password: ')) child.stdin.write('cli-admin-password-X\u007f1\r');
  });
  // The bound's timer is cleared once the login ended: left pending, it held the test process open for a minute.
  let bound: NodeJS.Timeout | undefined;
  const status = await Promise.race([done, new Promise<'timeout'>((resolve) => (bound = setTimeout(() => resolve('timeout'), 60_000)))]);
  clearTimeout(bound);
  t.is(status, 0, output);
  t.regex(output, /Password: /);
  t.false(output.includes('cli-admin-password'), 'the password is not echoed');
  t.regex(output, /\S{20,}/, 'the session id is printed');
});

test.serial('the groups summary names its subcommands as they are: list, members, add, remove', async (t) => {
  const help = await keygate(['--help']);
  t.regex(help.stdout, /^\s+groups\s+groups and their members: list, members, add, remove$/m);
  t.regex((await keygate(['groups', '--help'])).stdout, /^Usage: keygate groups <list\|members\|add\|remove>/);
});

test.serial(
  'a ttag holding "/" is read through the CLI (keys show) and the client, and in a path as base64url or percent-encoded',
  async (t) => {
    const session = await adminSession;
    const env = { KEYGATE_SESSION: session };
    const client = new KeygateClient({ baseUrl: gateway.url }).resume(session);
    let ttag: string | undefined;
    for (let i = 0; i < 200 && ttag === undefined; i++) {
      const key = await client.createKey({ keyLen: 16 });
      if (key.ttag.includes('/')) ttag = key.ttag;
    }
    if (ttag === undefined) return t.fail('no ttag with "/" among 200 keys');
    const shown = await keygate(['keys', 'show', ttag], env);
    t.is(shown.status, 0, shown.stderr);
    t.true(shown.stdout.startsWith(`${ttag}  128-bit`), shown.stdout);
    t.is((await client.readKey(ttag)).ttag, ttag);
    for (const inPath of [Buffer.from(ttag, 'base64').toString('base64url'), encodeURIComponent(ttag)]) {
      const response = await fetch(`${gateway.url}/api/keys/${inPath}`, { headers: { authorization: `Bearer ${session}` } });
      t.is(response.status, 200, inPath);
      t.is(((await response.json()) as { ttag: string }).ttag, ttag);
    }
  },
);
