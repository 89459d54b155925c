import { join } from 'node:path';
import test from 'ava';
import { Secret } from '../../../src/domain/secret/secret.js';
import { PASSWORDS, SEED } from '../../_support/gateway.js';
import { daemonFixtures, killAllDaemons, spawnDaemon } from '../../_support/keyserver-daemon.js';
import { adapterTo } from '../../_support/postgres-daemons.js';

test.after.always(killAllDaemons);

test('calls made at once on one daemon connection each get their own answer', async (t) => {
  const fixtures = await daemonFixtures(SEED);
  const daemon = await spawnDaemon(t, [
    '--data',
    join(fixtures.dir, 'ks.db'),
    '--port',
    '0',
    '--seed',
    fixtures.seedPath,
    '--admin-password',
    PASSWORDS.admin,
  ]);
  const keyServer = await adapterTo(t, daemon);
  const { token } = await keyServer.login('admin', new Secret(PASSWORDS.admin));
  const connection = await keyServer.connect(token);
  t.teardown(() => connection.close());
  const names = Array.from({ length: 16 }, (_, i) => `user${String(i).padStart(2, '0')}`);
  const made = await Promise.all(names.map((name) => connection.call('createPrincipal', { name, kind: 'user' })));
  t.deepEqual(
    made.map((view) => view.name),
    names,
  );
  const read = await Promise.all(names.map((name) => connection.call('readPrincipal', { name })));
  t.deepEqual(
    read.map((view) => view.name),
    names,
  );
});
