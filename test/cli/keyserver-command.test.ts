import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { certificateFingerprint } from '../../src/keyserver/identity/identity-certificate.js';
import { daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const dir = scratchDir('keygate-cli-');
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
  t.regex(first.output(), /warning: generated master key [0-9a-f]{16} in .*ks\.master\.key/);
  t.is(statSync(join(dir, 'first', 'ks.master.key')).mode & 0o777, 0o600);
  t.is(await first.stop(), 0, 'SIGTERM ends it with exit 0');
  const second = await spawnDaemon(t, ['--data', data, '--port', '0']);
  t.is(second.fingerprint, first.fingerprint);
  t.notRegex(second.output(), /generated password/);
  t.notRegex(second.output(), /generated master key/);
  t.is(await second.stop(), 0);
});

test('a restart with TE_KEYSERVER_ADMIN_PASSWORD says it is not applied once admin exists', async (t) => {
  const data = join(dir, 'admin-pw', 'ks.db');
  const first = await spawnDaemon(t, ['--data', data, '--port', '0']);
  t.notRegex(first.output(), /is not applied/);
  t.is(await first.stop(), 0);
  const second = await spawnDaemon(t, ['--data', data, '--port', '0'], { TE_KEYSERVER_ADMIN_PASSWORD: 'a-new-admin-password' });
  t.regex(second.output(), /keygate keyserver: warning: TE_KEYSERVER_ADMIN_PASSWORD is not applied: user admin already exists/);
  t.notRegex(second.output(), /a-new-admin-password/, 'the password itself is never shown');
  t.is(await second.stop(), 0);
});

test('rotate-master-key rewraps the data file under a new key, shows both ids, and the daemon opens it after', async (t) => {
  const data = join(dir, 'rotate', 'ks.db');
  const first = await spawnDaemon(t, ['--data', data, '--port', '0']);
  const oldId = /generated master key ([0-9a-f]{16})/.exec(first.output())?.[1];
  t.truthy(oldId);
  t.is(await first.stop(), 0);
  const oldKey = readFileSync(join(dir, 'rotate', 'ks.master.key'), 'utf8');
  const rotation = await run(['rotate-master-key', '--data', data]);
  t.is(rotation.status, 0, rotation.stderr);
  const shown = /^keygate keyserver: master key rotated old=([0-9a-f]{16}) new=([0-9a-f]{16}) rows=(\d+) file=\S+ks\.master\.key$/m.exec(
    rotation.stdout,
  );
  t.truthy(shown, rotation.stdout);
  t.is(shown?.[1], oldId);
  t.not(shown?.[2], oldId);
  t.true(Number(shown?.[3]) >= 2, "the bootstrap users' verifiers at least");
  t.not(readFileSync(join(dir, 'rotate', 'ks.master.key'), 'utf8'), oldKey);
  const second = await spawnDaemon(t, ['--data', data, '--port', '0']);
  t.is(await second.stop(), 0);
  const stale = await spawnDaemon(t, ['--data', data, '--port', '0'], { TE_KEYSERVER_MASTER_KEY: oldKey.trim() }).catch(
    (error: Error) => error,
  );
  t.regex(String(stale), /which was not given/, 'the old key alone no longer opens it');
});

test('a given certificate is served, and its fingerprint printed', async (t) => {
  const fixtures = await daemonFixtures({ principals: [] });
  const daemon = await spawnDaemon(t, ['--data', ':memory:', '--port', '0', '--cert', fixtures.certPath, '--key', fixtures.keyPath]);
  t.is(daemon.fingerprint, certificateFingerprint(fixtures.certPem));
  t.is(await daemon.stop(), 0);
});
