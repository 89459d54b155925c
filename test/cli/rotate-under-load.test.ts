import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { Owner } from '../_support/child-processes.js';
import { clientKeyPair } from '../_support/client-key.js';
import { type GatewayProcess, killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';
import { runKeygate } from '../_support/process-run.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const ADMIN = 'admin-password-rotate-1';
test.after.always(killAllGateways);

const rotate = (t: Owner, data: string) =>
  runKeygate(t, ['keyserver', 'rotate-master-key', '--data', data], { TE_KEYSERVER_ADMIN_PASSWORD: '' });

async function login(gw: GatewayProcess): Promise<string> {
  const reply = await call(gw.url, 'POST', '/login', { body: { user: 'admin', password: ADMIN } });
  if (reply.status !== 200) throw new Error(`login: ${reply.status} ${reply.text}`);
  return reply.body.sessionId as string;
}

async function exportKey(gw: GatewayProcess, session: string, ttag: string): Promise<Buffer | string> {
  const client = clientKeyPair();
  const reply = await call(gw.url, 'POST', '/keys/export', {
    headers: { 'X-Session': session },
    body: { ttag, clientPubKey: client.publicKey },
  });
  return reply.status === 200 ? client.unwrap(reply.body.wrapped) : `${reply.status} ${reply.text}`;
}

test('rotate-master-key under load is refused while keygate serve holds the store; after a stop it rotates, and every key made opens after the restart', async (t) => {
  const dataDir = scratchDir('keygate-rotate-load-');
  const data = join(dataDir, 'keyserver.db');
  const env = { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: ADMIN };
  const first = await spawnGateway(t, env);
  const session = await login(first);
  const made = new Map<string, Buffer>();
  let loading = true;
  let failure: unknown;
  const load = (async () => {
    while (loading) {
      const reply = await call(first.url, 'POST', '/keys', { headers: { 'X-Session': session } });
      if (reply.status !== 200) throw new Error(`generate: ${reply.status} ${reply.text}`);
      const ttag = reply.body.ttag as string;
      const bytes = await exportKey(first, session, ttag);
      if (typeof bytes === 'string') throw new Error(`export: ${bytes}`);
      made.set(ttag, bytes);
    }
  })().catch((error: unknown) => (failure = error));
  /** Waits (boundedly) until the load has made `count` keys; a failed load fails the test at once. */
  const until = async (count: number) => {
    for (let waited = 0; made.size < count && failure === undefined && waited < 20_000; waited += 20)
      await new Promise((done) => setTimeout(done, 20));
    if (failure !== undefined) throw failure;
  };
  await until(5);
  const keyFile = join(dataDir, 'keyserver.master.key');
  const keyBefore = readFileSync(keyFile, 'utf8');
  const refused = await rotate(t, data);
  await until(made.size + 5);
  loading = false;
  await load;
  if (failure !== undefined) throw failure;
  t.is(refused.status, 2, `${refused.stdout}${refused.stderr}`);
  t.regex(
    refused.stderr,
    new RegExp(`^keygate: .*keyserver\\.db.* held by pid ${first.child.pid} on host \\S+ since \\d{4}-\\d\\d-\\d\\dT\\S+Z.*\\n$`),
  );
  t.is(refused.stderr.split('\n').length, 2, 'one line');
  t.is(refused.stdout, '');
  t.is(readFileSync(keyFile, 'utf8'), keyBefore, 'the key file is untouched');
  t.is(await first.stop(), 0);

  const rotation = await rotate(t, data);
  t.is(rotation.status, 0, rotation.stderr);
  t.regex(rotation.stdout, /^keygate keyserver: master key rotated old=[0-9a-f]{16} new=[0-9a-f]{16} rows=\d+/);

  const second = await spawnGateway(t, env);
  const again = await login(second);
  for (const [ttag, bytes] of made) t.deepEqual(await exportKey(second, again, ttag), bytes, ttag);
  t.true(made.size >= 10);
});
