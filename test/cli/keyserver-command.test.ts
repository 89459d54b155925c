import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certificateFingerprint } from '../../src/keyserver/identity/identity-certificate.js';
import { daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

const BIN = new URL('../../bin/keygate.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'keygate-cli-'));
test.after.always(killAllDaemons);

/** Runs `keygate keyserver args` to its end (only for invocations that do not start the daemon). */
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, TE_KEYSERVER_ADMIN_PASSWORD: '' };
    execFile(process.execPath, [BIN, 'keyserver', ...args], { encoding: 'utf8', env, timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

test('keygate keyserver --help prints its usage and exits 0', async (t) => {
  const help = await run(['--help']);
  t.is(help.status, 0);
  t.regex(help.stdout, /^Usage: keygate keyserver/);
  t.regex(help.stdout, /--token-ttl/);
});

const bad: [string, string[], RegExp][] = [
  ['an unknown option', ['--nope'], /unknown option --nope/],
  ['an option without its value', ['--port'], /--port needs a value/],
  ['a positional argument', ['extra'], /unexpected argument extra/],
  ['a port that is not a number', ['--port', 'https'], /^keygate: --port:/],
  ['a zero token lifetime', ['--token-ttl', '0'], /^keygate: --token-ttl:/],
  ['a certificate without its key', ['--cert', '/tmp/x.crt'], /--cert and --key go together/],
  ['a seed file that does not exist', ['--seed', join(dir, 'none.json')], /^keygate: --seed: cannot read/],
];
for (const [name, args, message] of bad) {
  test(`refuses ${name} with one line and exit 2`, async (t) => {
    const result = await run(['--data', ':memory:', ...args]);
    t.is(result.status, 2, result.stderr);
    t.is(result.stderr.trim().split('\n').length, 1);
    t.regex(result.stderr, message);
    t.is(result.stdout, '');
  });
}

test('first start generates and keeps an identity and bootstrap users beside the data file; a restart keeps both', async (t) => {
  const data = join(dir, 'first', 'ks.db');
  const first = await spawnDaemon(['--data', data, '--port', '0']);
  t.regex(first.output(), /generated password for user "admin"/);
  t.regex(first.output(), /generated password for user "guest"/);
  t.true(existsSync(join(dir, 'first', 'ks.identity.crt')));
  t.is(await first.stop(), 0, 'SIGTERM ends it with exit 0');
  const second = await spawnDaemon(['--data', data, '--port', '0']);
  t.is(second.fingerprint, first.fingerprint);
  t.notRegex(second.output(), /generated password/);
  t.is(await second.stop(), 0);
});

test('a given certificate is served, and its fingerprint printed', async (t) => {
  const fixtures = await daemonFixtures({ principals: [] });
  const daemon = await spawnDaemon(['--data', ':memory:', '--port', '0', '--cert', fixtures.certPath, '--key', fixtures.keyPath]);
  t.is(daemon.fingerprint, certificateFingerprint(fixtures.certPem));
  t.is(await daemon.stop(), 0);
});
