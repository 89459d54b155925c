import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Secret } from '../../src/domain/secret/secret.js';
import {
  adapterTo,
  createDatabase,
  postgresForTests,
  runKeygate,
  sharedFixtures,
  spawnPostgresDaemon,
} from '../_support/postgres-daemons.js';

const { server, maybe } = postgresForTests();

maybe(
  'rotate-master-key on PostgreSQL is refused while a daemon serves; stopped, it rewraps every row and every key opens after',
  async (t) => {
    const url = await createDatabase(server.url!);
    const fixtures = sharedFixtures();
    const serving = await spawnPostgresDaemon(t, url, fixtures);
    const keyServer = await adapterTo(t, serving);
    const alice = await keyServer.connect((await keyServer.login('alice', new Secret('alice-pw'))).token);
    const keys = new Map<string, Buffer>();
    for (let index = 0; index < 3; index += 1) {
      const { ttag } = await alice.call('generateKey', { keyLen: 32 });
      keys.set(ttag, Buffer.from((await alice.call('exportKey', { ttag })).key));
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
    for (const [ttag, bytes] of keys) t.deepEqual((await aliceAgain.call('exportKey', { ttag })).key, bytes);
  },
);

/** Ends every session holding the store's serving lock shared (the daemons'); answers how many. */
async function dropServingLocks(admin: pg.Client): Promise<number> {
  const { rows } = await admin.query<{ ended: boolean }>(
    `SELECT pg_terminate_backend(l.pid) AS ended FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.mode = 'ShareLock' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows.length;
}

maybe(
  'a daemon whose serving lock dropped and was taken again after a rotation cannot seal under the retired key; every key opens after',
  async (t) => {
    const url = await createDatabase(server.url!);
    const fixtures = sharedFixtures();
    const stale = await spawnPostgresDaemon(t, url, fixtures);
    const keyServer = await adapterTo(t, stale);
    const alice = await keyServer.connect((await keyServer.login('alice', new Secret('alice-pw'))).token);
    t.teardown(() => alice.close());
    const keys = new Map<string, Buffer>();
    for (let index = 0; index < 2; index += 1) {
      const { ttag } = await alice.call('generateKey', { keyLen: 32 });
      keys.set(ttag, Buffer.from((await alice.call('exportKey', { ttag })).key));
    }
    const oldKeyFile = join(fixtures.dir, 'old-master.key');
    writeFileSync(oldKeyFile, readFileSync(fixtures.masterKeyFile), { mode: 0o600 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    t.teardown(() => admin.end());
    t.is(await dropServingLocks(admin), 1, "the daemon's lock session");

    // The daemon takes its lock again a second after losing it: its lock sessions are ended as they
    // come back until the rotation holds the lock, as a daemon cut off from PostgreSQL for a while would.
    const rotate = ['keyserver', 'rotate-master-key', '--master-key-file', fixtures.masterKeyFile, '--postgres', url];
    let rotating = true;
    const keepDropping = (async () => {
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      try {
        while (rotating) {
          await dropServingLocks(watcher);
          await new Promise((tick) => setTimeout(tick, 10));
        }
      } finally {
        await watcher.end();
      }
    })();
    let rotated = await runKeygate(rotate);
    // The daemon may still have won one of its tries, for the few ms before its session was ended.
    for (let tries = 0; tries < 3 && rotated.status === 2 && /serves this PostgreSQL store/.test(rotated.stderr); tries += 1)
      rotated = await runKeygate(rotate);
    rotating = false;
    await keepDropping;
    t.is(rotated.status, 0, rotated.stderr);

    // The stale daemon takes its lock again and still holds only the old key.
    const locked = async () =>
      (await admin.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock' AND granted`)).rowCount === 1;
    for (let tries = 0; tries < 300 && !(await locked()); tries += 1) await new Promise((tick) => setTimeout(tick, 20));
    t.true(await locked(), 'the stale daemon serves again');
    await t.throwsAsync(alice.call('generateKey', { keyLen: 32 }), undefined, 'a key sealed under the retired master key was stored');
    const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM keys');
    t.is(Number(rows[0]!.n), keys.size, 'nothing was stored');

    t.is(await stale.stop(), 0);
    await t.throwsAsync(
      spawnPostgresDaemon(t, url, { ...fixtures, masterKeyFile: oldKeyFile }),
      { message: /master key [0-9a-f]{16}/ },
      'the old key is refused at start',
    );
    // The old key listed first, the rotated one after it: the old key is refused as retired.
    const bothKeys = join(fixtures.dir, 'old-then-new.key');
    writeFileSync(bothKeys, `${readFileSync(oldKeyFile, 'utf8').trim()}\n${readFileSync(fixtures.masterKeyFile, 'utf8').trim()}\n`, {
      mode: 0o600,
    });
    await t.throwsAsync(spawnPostgresDaemon(t, url, { ...fixtures, masterKeyFile: bothKeys }), {
      message: /was retired by rotate-master-key/,
    });
    const fresh = await spawnPostgresDaemon(t, url, fixtures);
    const again = await adapterTo(t, fresh);
    const aliceAgain = await again.connect((await again.login('alice', new Secret('alice-pw'))).token);
    t.teardown(() => aliceAgain.close());
    for (const [ttag, bytes] of keys) t.deepEqual((await aliceAgain.call('exportKey', { ttag })).key, bytes);
    t.truthy((await aliceAgain.call('generateKey', { keyLen: 32 })).ttag, 'a daemon with the rotated key writes');
  },
);
