import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secret } from '../../src/domain/secret/secret.js';
import { adapterTo, createDatabase, postgresForTests, runKeygate, sharedFixtures, spawnPostgresDaemon } from '../_support/postgres-daemons.js';

const { server, maybe } = postgresForTests();

maybe('rotate-master-key on PostgreSQL is refused while a daemon serves; stopped, it rewraps every row and every key opens after', async (t) => {
  const url = await createDatabase(server.url!);
  const fixtures = sharedFixtures();
  const serving = await spawnPostgresDaemon(t, url, fixtures);
  const keyServer = await adapterTo(t, serving);
  const alice = await keyServer.connect((await keyServer.login('alice', new Secret('alice-pw'))).token);
  const keys = new Map<string, Buffer>();
  for (let index = 0; index < 3; index += 1) {
    const { ttag } = await alice.generateKey({ keyLen: 32 });
    keys.set(ttag, Buffer.from((await alice.exportKey(ttag)).key));
  }
  await alice.close();
  const oldKeyFile = readFileSync(fixtures.masterKeyFile, 'utf8');

  // The URL from a file, as a deployment keeps it (its password out of the process list).
  const urlFile = join(fixtures.dir, 'postgres-url');
  writeFileSync(urlFile, `${url}\n`, { mode: 0o600 });
  const rotate = ['rotate-master-key', '--master-key-file', fixtures.masterKeyFile];
  const env = { TE_KEYSERVER_POSTGRES_URL_FILE: urlFile };
  const refused = await runKeygate(['keyserver', ...rotate], env);
  t.is(refused.status, 2, refused.stderr);
  t.is(refused.stderr, 'keygate: a key-server daemon serves this PostgreSQL store: stop every daemon on it first\n');
  t.is(readFileSync(fixtures.masterKeyFile, 'utf8'), oldKeyFile, 'the key file is untouched');

  t.is(await serving.stop(), 0);
  const rotated = await runKeygate(['keyserver', ...rotate], env);
  t.is(rotated.status, 0, rotated.stderr);
  const shown = /^keygate keyserver: master key rotated old=([0-9a-f]{16}) new=([0-9a-f]{16}) rows=(\d+) file=/m.exec(rotated.stdout);
  t.truthy(shown, rotated.stdout);
  t.not(shown![1], shown![2]);
  t.true(Number(shown![3]) >= keys.size, 'every key and verifier was rewrapped');
  t.not(readFileSync(fixtures.masterKeyFile, 'utf8'), oldKeyFile);

  const restarted = await spawnPostgresDaemon(t, url, fixtures);
  const again = await adapterTo(t, restarted);
  const aliceAgain = await again.connect((await again.login('alice', new Secret('alice-pw'))).token);
  t.teardown(() => aliceAgain.close());
  for (const [ttag, bytes] of keys) t.deepEqual((await aliceAgain.exportKey(ttag)).key, bytes);
});
