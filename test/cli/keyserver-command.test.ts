import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certificateFingerprint } from '../../src/keyserver/identity/identity-certificate.js';
import { daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'keygate-cli-'));
test.after.always(killAllDaemons);

/** Runs `keygate keyserver args` to its end (only for invocations that do not start the daemon). */
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, TE_KEYSERVER_ADMIN_PASSWORD: '' };
    execFile(process.execPath, [BIN, 'keyserver', ...args], { encoding: 'utf8', env, timeout: 45_000 }, (error, stdout, stderr) => {
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

test('a bad flag stops it with one line on stderr and exit 2', async (t) => {
  const result = await run(['--data', ':memory:', '--port', 'https']);
  t.is(result.status, 2, result.stderr);
  t.is(result.stderr, 'keygate: --port: expected an integer from 0 to 65535, got "https"\n');
  t.is(result.stdout, '');
});

test('first start generates and keeps an identity and bootstrap users beside the data file; a restart keeps both', async (t) => {
  const data = join(dir, 'first', 'ks.db');
  const first = await spawnDaemon(t, ['--data', data, '--port', '0']);
  t.regex(first.output(), /generated password for user "admin"/);
  t.regex(first.output(), /generated password for user "guest"/);
  t.true(existsSync(join(dir, 'first', 'ks.identity.crt')));
  t.is(await first.stop(), 0, 'SIGTERM ends it with exit 0');
  const second = await spawnDaemon(t, ['--data', data, '--port', '0']);
  t.is(second.fingerprint, first.fingerprint);
  t.notRegex(second.output(), /generated password/);
  t.is(await second.stop(), 0);
});

test('a given certificate is served, and its fingerprint printed', async (t) => {
  const fixtures = await daemonFixtures({ principals: [] });
  const daemon = await spawnDaemon(t, ['--data', ':memory:', '--port', '0', '--cert', fixtures.certPath, '--key', fixtures.keyPath]);
  t.is(daemon.fingerprint, certificateFingerprint(fixtures.certPem));
  t.is(await daemon.stop(), 0);
});
