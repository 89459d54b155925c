import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { configFromEnv } from '../../src/app/config/from-env.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import { spawnGateway } from '../_support/gateway-process.js';
import { scratchDir } from '../_support/scratch-dirs.js';

async function generate(gw: TestGateway, session: string): Promise<string> {
  const reply = await gw.call('POST', '/keys', { headers: { 'X-Session': session }, body: {} });
  if (reply.status !== 200) throw new Error(`generate: ${reply.status} ${reply.text}`);
  return reply.body.ttag as string;
}

async function exportKey(gw: TestGateway, session: string, ttag: string): Promise<Buffer | undefined> {
  const client = clientKeyPair();
  const reply = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': session },
    body: { ttag, clientPubKey: client.publicKey },
  });
  return reply.status === 200 ? client.unwrap(reply.body.wrapped) : undefined;
}

const embedded = (dataDir: string, store?: 'memory' | 'sqlite') => ({
  keyServer: { kind: 'embedded' as const, seed: SEED, adminPassword: PASSWORDS.admin, dataDir, ...(store === undefined ? {} : { store }) },
});

test('with a data directory, a key made before a restart exports the same bytes after it, with its grants', async (t) => {
  const dataDir = scratchDir('keygate-durable-');
  const first = await startGateway(t, embedded(dataDir));
  const alice = await first.login('alice');
  const ttag = await generate(first, alice);
  const grant = await first.call('POST', '/keys/grant', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } });
  t.is(grant.status, 200, grant.text);
  const before = await exportKey(first, alice, ttag);
  t.truthy(before);
  await first.close();

  const second = await startGateway(t, embedded(dataDir));
  t.deepEqual(await exportKey(second, await second.login('alice'), ttag), before, 'the same key bytes after the restart');
  t.deepEqual(await exportKey(second, await second.login('bob'), ttag), before, 'the grant survived too');
  const file = join(dataDir, 'keyserver.db');
  t.true(existsSync(file));
  const raw = Buffer.concat([file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
  t.is(raw.indexOf(before!), -1, 'the key is sealed at rest');
  t.true(existsSync(join(dataDir, 'keyserver.master.key')));
});

test('store "memory" keeps nothing across a restart and says so at boot', async (t) => {
  const dataDir = scratchDir('keygate-volatile-');
  const first = await startGateway(t, embedded(dataDir, 'memory'));
  t.true(
    first.logger.lines.some((line) => line.level === 'warn' && /memory/.test(line.message) && /restart/.test(line.message)),
    JSON.stringify(first.logger.lines),
  );
  const alice = await first.login('alice');
  const ttag = await generate(first, alice);
  await first.close();
  const second = await startGateway(t, embedded(dataDir, 'memory'));
  t.is(await exportKey(second, await second.login('alice'), ttag), undefined);
  t.false(existsSync(join(dataDir, 'keyserver.db')));
});

test('keygate serve with TE_KEYSERVER_STORE=memory says so on stderr; the default keeps keyserver.db in the data directory', async (t) => {
  const volatile = await spawnGateway(t, { TE_KEYSERVER_STORE: 'memory', TE_KEYSERVER_ADMIN_PASSWORD: 'admin-pw-1' });
  t.regex(volatile.output(), /^keygate: warning: embedded key server in memory: a restart forgets every principal, key and grant/m);
  t.is(await volatile.stop(), 0);
  const dataDir = scratchDir('keygate-serve-durable-');
  const durable = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: 'admin-pw-1' });
  t.notRegex(durable.output(), /in memory/);
  t.true(existsSync(join(dataDir, 'keyserver.db')));
  t.is(await durable.stop(), 0);
});

test('a store kind other than sqlite or memory, or a master key given twice, stops the boot naming the variable', (t) => {
  t.throws(() => configFromEnv({ TE_KEYSERVER_STORE: 'disk' }), { message: /^TE_KEYSERVER_STORE: / });
  t.throws(() => configFromEnv({ TE_KEYSERVER_MASTER_KEY: 'a', TE_KEYSERVER_MASTER_KEY_FILE: 'b' }), {
    message: /^TE_KEYSERVER_MASTER_KEY_FILE: .*not both/,
  });
});
