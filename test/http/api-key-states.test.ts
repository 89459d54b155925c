import test from 'ava';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The key's bytes of its newest version, unwrapped by the test's own P-256 key (docs/spec.md §3). */
async function exportedBytes(session: ApiSession, ttag: string): Promise<Buffer> {
  const client = clientKeyPair();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return client.unwrap(reply.body.wrapped);
}

const DISABLED = { status: 409, body: { code: 'KEY_DISABLED' } };

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: a disabled key refuses export, data keys and every cryptography with 409 KEY_DISABLED; enabled, it is the same key`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice);
      const path = `/api/keys/${pathTtag(ttag)}`;
      const before = await exportedBytes(alice, ttag);
      const { alg: _a, version: _v, ...sealed } = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('kept') })).body;
      const { mac } = (await alice.post('/api/crypto/mac', { ttag, data: b64('m') })).body;
      const { blob } = (await alice.post('/api/crypto/datakey', { ttag })).body;
      t.is((await alice.put(`${path}/acl/bob`, { rights: ['read', 'encrypt'] })).status, 200);

      const disabled = await alice.post(`${path}/disable`);
      t.is(disabled.status, 200, disabled.text);
      t.like(disabled.body, { ttag, state: 'disabled', version: 1 });
      t.like(await alice.post(`${path}/disable`), { status: 200, body: { state: 'disabled' } }, 'disabling again changes nothing');

      t.like(await alice.post(`${path}/export`, { clientPubKey: clientKeyPair().publicKey }), DISABLED);
      t.like(await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') }), DISABLED);
      t.like(await alice.post('/api/crypto/decrypt', { ttag, ...sealed }), DISABLED);
      t.like(await alice.post('/api/crypto/mac', { ttag, data: b64('m') }), DISABLED);
      t.like(await alice.post('/api/crypto/mac/verify', { ttag, data: b64('m'), mac }), DISABLED);
      t.like(await alice.post('/api/crypto/rewrap', { ttag, ...sealed }), DISABLED);
      t.like(await alice.post('/api/crypto/datakey', { ttag }), DISABLED);
      t.like(await alice.post('/api/crypto/datakey/open', { ttag, blob, clientPubKey: clientKeyPair().publicKey }), DISABLED);
      const batches = [
        ['encrypt', { ttag, plaintext: b64('x') }],
        ['decrypt', { ttag, ...sealed }],
        ['mac', { ttag, data: b64('m') }],
        ['mac/verify', { ttag, data: b64('m'), mac }],
        ['rewrap', { ttag, ...sealed }],
      ] as const;
      for (const [operation, item] of batches) {
        const reply = await alice.post(`/api/crypto/${operation}`, { items: [item] });
        t.is(reply.status, 200, `${operation}: ${reply.text}`);
        t.like(reply.body.items, [{ ok: false, error: { code: 'KEY_DISABLED' } }], operation);
      }
      const bob = await signIn(gw, 'bob');
      t.like(await bob.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') }), DISABLED, 'a grantee is refused too');

      // Reads, versions, ACL reads and writes, and rotation still work on a disabled key.
      t.like(await alice.get(path), { status: 200, body: { state: 'disabled' } });
      t.like(await bob.get(path), { status: 200, body: { state: 'disabled' } });
      t.like(await alice.get(`${path}/versions`), { status: 200 });
      t.like(await alice.get(`${path}/acl`), { status: 200 });
      t.is((await alice.put(`${path}/acl/bob`, { rights: ['read', 'encrypt', 'decrypt'] })).status, 200);
      t.like(await alice.post(`${path}/rotate`), { status: 200, body: { state: 'disabled', version: 2 } });

      const enabled = await alice.post(`${path}/enable`);
      t.is(enabled.status, 200, enabled.text);
      t.like(enabled.body, { ttag, state: 'active', version: 2 });
      t.like(await alice.post(`${path}/enable`), { status: 200, body: { state: 'active' } }, 'enabling again changes nothing');
      const client = clientKeyPair();
      const first = await alice.post(`${path}/export`, { clientPubKey: client.publicKey, version: 1 });
      t.is(first.status, 200, first.text);
      t.deepEqual(client.unwrap(first.body.wrapped), before, 'version 1 is the same key bytes as before it was disabled');
      t.like(await alice.post('/api/crypto/decrypt', { ttag, ...sealed }), { status: 200, body: { plaintext: b64('kept') } });

      const auditor = await signIn(gw, 'audra');
      t.like((await auditor.get('/api/audit?operation=keys.disable')).body.items, [
        { principal: 'alice', object: ttag, outcome: 'ok' },
        { principal: 'alice', object: ttag, outcome: 'ok' },
      ]);
      t.like((await auditor.get('/api/audit?operation=keys.enable')).body.items, [{ principal: 'alice', object: ttag, outcome: 'ok' }]);
    },
  );

  check(`${store}: only the owner disables or enables (403); an expired key is 409 KEY_EXPIRED; an unknown key 404`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const bob = await signIn(gw, 'bob');
    const { ttag } = await createKey(alice);
    const path = `/api/keys/${pathTtag(ttag)}`;
    t.is((await alice.put(`${path}/acl/bob`, { rights: ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate'] })).status, 200);
    t.like(await bob.post(`${path}/disable`), { status: 403, body: { code: 'ACL_DENIED' } });
    t.like(await alice.get(path), { body: { state: 'active' } });
    t.is((await alice.post(`${path}/disable`)).status, 200);
    t.like(await bob.post(`${path}/enable`), { status: 403, body: { code: 'ACL_DENIED' } });
    t.like(await alice.get(path), { body: { state: 'disabled' } });
    t.is((await alice.post(`${path}/expire`)).status, 200);
    t.like(await alice.get(path), { body: { state: 'expired' } }, 'expiry wins over disabling');
    t.like(await alice.post(`${path}/enable`), { status: 409, body: { code: 'KEY_EXPIRED' } });
    t.like(await alice.post(`${path}/disable`), { status: 409, body: { code: 'KEY_EXPIRED' } });
    const unknown = pathTtag(Buffer.alloc(24, 9).toString('base64'));
    t.like(await alice.post(`/api/keys/${unknown}/disable`), { status: 404, body: { code: 'NOT_FOUND' } });
  });
}

test('a disabled key stays disabled when the gateway and its SQLite key server start again', async (t) => {
  const keyServer = {
    kind: 'embedded' as const,
    seed: SEED,
    adminPassword: PASSWORDS.admin,
    dataDir: scratchDir('keygate-states-'),
    store: 'sqlite' as const,
  };
  const first = await startGateway(t, { keyServer });
  const { ttag } = await createKey(await signIn(first, 'alice'));
  t.is((await (await signIn(first, 'alice')).post(`/api/keys/${pathTtag(ttag)}/disable`)).status, 200);
  await first.close();
  const second = await startGateway(t, { keyServer });
  const alice = await signIn(second, 'alice');
  t.like(await alice.get(`/api/keys/${pathTtag(ttag)}`), { status: 200, body: { state: 'disabled' } });
  t.like(await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') }), DISABLED);
  t.like(await alice.post(`/api/keys/${pathTtag(ttag)}/enable`), { status: 200, body: { state: 'active' } });
});

test('the root export of a disabled key is refused as the root surface refuses: 403 export denied or failed', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  const made = await gw.call('POST', '/keys', { headers: { 'X-Session': session }, body: {} });
  t.is(made.status, 200, made.text);
  const { ttag } = made.body as { ttag: string };
  t.is((await signIn(gw, 'alice').then((alice) => alice.post(`/api/keys/${pathTtag(ttag)}/disable`))).status, 200);
  const client = clientKeyPair();
  const refused = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': session },
    body: { ttag, clientPubKey: client.publicKey },
  });
  t.deepEqual(refused.body, { error: 'export denied or failed', detail: 'the key is disabled' });
  t.is(refused.status, 403);
});
