import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { srpCreateVerifier } from '../../src/crypto/srp/srp-verifier.js';
import { Secret } from '../../src/domain/secret/secret.js';
import { adapterTo, createDatabase, PG_SEED, postgresForTests, sharedFixtures, spawnPostgresDaemon } from '../_support/postgres-daemons.js';
import { testUnless } from '../_support/skip.js';

const pgDump = ['/usr/lib/postgresql']
  .filter(existsSync)
  .flatMap((root) => readdirSync(root).map((version) => `${root}/${version}/bin/pg_dump`))
  .find(existsSync);
const { server, maybe: withServer } = postgresForTests();
const maybe = server.url !== undefined && pgDump === undefined ? testUnless('no pg_dump in /usr/lib/postgresql/*/bin') : withServer;

/** The forms a secret could take in a plain-text dump: raw, hex (bytea is dumped as `\x…`), base64 and base64url. */
function forms(secret: Buffer): string[] {
  return [secret.toString('latin1'), secret.toString('hex'), secret.toString('base64'), secret.toString('base64url')];
}

maybe('a pg_dump of a store with exported keys and passwords holds no key bytes and no SRP verifier', async (t) => {
  const url = await createDatabase(server.url!);
  const daemon = await spawnPostgresDaemon(t, url, sharedFixtures());
  const keyServer = await adapterTo(t, daemon);
  const alice = await keyServer.connect((await keyServer.login('alice', new Secret('alice-pw'))).token);
  t.teardown(() => alice.close());
  const exported: Buffer[] = [];
  for (let index = 0; index < 4; index += 1) {
    const { ttag } = await alice.call('generateKey', { keyLen: 32, label: `dump-${index}` });
    await alice.call('grant', { ttag, principal: 'bob', rights: ['read'] });
    exported.push(Buffer.from((await alice.call('exportKey', { ttag })).key));
  }
  t.true(exported.every((key) => key.length >= 16));

  // The verifiers the daemon keeps, computed from the seeded passwords and the salts stored in clear.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  const salts = await client.query<{ name: string; srp_salt: Buffer }>('SELECT name, srp_salt FROM principals WHERE srp_salt IS NOT NULL');
  const passwords = new Map(PG_SEED.principals.filter((p) => 'password' in p).map((p) => [p.name, (p as { password: string }).password]));
  const verifiers = salts.rows.map((row) => srpCreateVerifier(row.name, passwords.get(row.name)!, { bytes: () => row.srp_salt }).verifier);
  t.is(verifiers.length, passwords.size);

  const dump = spawnSync(pgDump!, ['--dbname', url, '--no-owner'], { encoding: 'latin1', maxBuffer: 64 * 1024 * 1024 });
  t.is(dump.status, 0, dump.stderr);
  t.regex(dump.stdout, /COPY public\.keys /);
  t.regex(dump.stdout, /COPY public\.principals /);
  for (const secret of [...exported, ...verifiers]) {
    for (const form of forms(secret)) t.false(dump.stdout.includes(form), 'a secret is in the dump');
  }
  // The search would find them: the exported bytes are what the engine opens from the sealed rows.
  const sealed = await client.query<{ material: Buffer }>('SELECT material FROM keys');
  t.is(sealed.rows.length, exported.length);
  t.true(dump.stdout.includes(sealed.rows[0]!.material.toString('hex')));
});
