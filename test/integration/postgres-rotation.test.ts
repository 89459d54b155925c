import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secret } from '../../src/domain/secret/secret.js';
import { killAllDaemons } from '../_support/keyserver-daemon.js';
import { startTestPostgres } from '../_support/postgres.js';
import { adapterTo, createDatabase, sharedFixtures, spawnPostgresDaemon } from '../_support/postgres-daemons.js';

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const server = startTestPostgres();
const maybe = server.url === undefined ? test.skip : test;
if (server.reason !== undefined) test(`skipped: ${server.reason}`, (t) => t.pass());

test.after.always(async () => {
  await killAllDaemons();
  await server.stop();
});

/** Runs `keygate keyserver args` to its end. */
function keyserver(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'keyserver', ...args], { encoding: 'utf8', timeout: 45_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

maybe('rotate-master-key on PostgreSQL is refused while a daemon serves; stopped, it rewraps every row and every key opens after', async (t) => {
  const url = await createDatabase(server.url!);
  const fixtures = sharedFixtures();
  const serving = await spawnPostgresDaemon(t, url, fixtures);
  const keyServer = await adapterTo(t, serving);
  const alice = await keyServer.connect((await keyServer.login('alice', new Secret('alice-pw'))).token);
  const keys = new Map<string, Buffer>();
  for (let index = 0; index < 3; index += 1) {
    const { ttag } = await alice.generateKey({ keyLen: 32 });
    keys.set(ttag, (await alice.exportKey(ttag)).key);
  }
  await alice.close();
  const oldKeyFile = readFileSync(fixtures.masterKeyFile, 'utf8');

  // The URL from a file, as a deployment keeps it (its password out of the process list).
  const urlFile = join(fixtures.dir, 'postgres-url');
  writeFileSync(urlFile, `${url}\n`, { mode: 0o600 });
  const rotate = ['rotate-master-key', '--master-key-file', fixtures.masterKeyFile];
  const env = { TE_KEYSERVER_POSTGRES_URL_FILE: urlFile };
  const refused = await keyserver(rotate, env);
  t.is(refused.status, 2, refused.stderr);
  t.is(refused.stderr, 'keygate: a key-server daemon serves this PostgreSQL store: stop every daemon on it first\n');
  t.is(readFileSync(fixtures.masterKeyFile, 'utf8'), oldKeyFile, 'the key file is untouched');

  t.is(await serving.stop(), 0);
  const rotated = await keyserver(rotate, env);
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
