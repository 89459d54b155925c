import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

test.after.always(killAllDaemons);

/** The lines a daemon wrote before its listening line. */
const beforeListening = (output: string) => output.slice(0, output.indexOf('keygate keyserver: listening'));

test('keygate keyserver warns, before it listens, of every secret file its group or others can read, with the chmod that fixes it', async (t) => {
  const fixtures = await daemonFixtures({ principals: [] });
  t.teardown(() => rmSync(fixtures.dir, { recursive: true, force: true }));
  const passwordFile = join(fixtures.dir, 'admin-password');
  writeFileSync(passwordFile, 'admin-pw-1\n');
  chmodSync(fixtures.seedPath, 0o644);
  chmodSync(fixtures.keyPath, 0o640);
  chmodSync(passwordFile, 0o604);
  const args = [
    '--data',
    join(fixtures.dir, 'ks.db'),
    '--port',
    '0',
    '--seed',
    fixtures.seedPath,
    '--cert',
    fixtures.certPath,
    '--key',
    fixtures.keyPath,
  ];
  const env = { TE_KEYSERVER_ADMIN_PASSWORD_FILE: passwordFile };

  const loose = await spawnDaemon(t, args, env);
  const warned = beforeListening(loose.output());
  for (const [setting, path, mode] of [
    ['--seed', fixtures.seedPath, '0644'],
    ['--key', fixtures.keyPath, '0640'],
    ['TE_KEYSERVER_ADMIN_PASSWORD_FILE', passwordFile, '0604'],
  ] as const) {
    t.true(
      warned.includes(
        `keygate keyserver: warning: ${setting}: ${path} holds a secret and is readable by its group or others (mode ${mode}); run: chmod 600 ${path}\n`,
      ),
      `${setting} warned before listening:\n${loose.output()}`,
    );
  }
  t.false(warned.includes('ks.master.key holds a secret'), `the master key the daemon generated is its owner's only:\n${warned}`);
  t.false(loose.output().includes('admin-pw-1'), 'no secret is echoed');
  t.is(await loose.stop(), 0);

  for (const path of [fixtures.seedPath, fixtures.keyPath, passwordFile]) chmodSync(path, 0o600);
  const tight = await spawnDaemon(t, args, env);
  t.false(tight.output().includes('readable by its group or others'), tight.output());
});
