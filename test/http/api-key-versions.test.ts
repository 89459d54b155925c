import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(`${store}: a new key is version 1; rotate adds version 2 and the view lists both`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const key = await createKey(alice);
    t.like(key, { version: 1, minVersion: 1, versions: [{ version: 1, state: 'active' }] });
    const rotated = await alice.post(`/api/keys/${pathTtag(key.ttag)}/rotate`);
    t.is(rotated.status, 200, rotated.text);
    t.like(rotated.body, { ttag: key.ttag, version: 2, minVersion: 1, keyLen: 16 });
    t.deepEqual(
      rotated.body.versions.map((v: { version: number; state: string }) => [v.version, v.state]),
      [
        [1, 'active'],
        [2, 'active'],
      ],
    );
    t.like((await alice.get(`/api/keys/${pathTtag(key.ttag)}`)).body, { version: 2 });
    const bob = await signIn(gw, 'bob');
    t.like(await bob.post(`/api/keys/${pathTtag(key.ttag)}/rotate`), { status: 403, body: { code: 'ACL_DENIED' } });
    t.is((await alice.put(`/api/keys/${pathTtag(key.ttag)}/acl/bob`, { rights: ['rotate'] })).status, 200);
    t.like(await bob.post(`/api/keys/${pathTtag(key.ttag)}/rotate`), { status: 200, body: { version: 3 } });
  });

  check(`${store}: a key takes a rotation period of at least one day in fixed-length units; other periods are 400`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const key = await createKey(alice, { rotationPeriod: 'P1DT12H' });
    t.is(key.rotationPeriod, 'P1DT12H');
    t.is(Date.parse(String(key.nextRotationAt)) - Date.parse(String(key.createdAt)), 36 * 3_600_000);
    for (const rotationPeriod of ['P1M', 'P1Y', 'PT23H', 'P0D', '90 days', 'P']) {
      t.like(await alice.post('/api/keys', { rotationPeriod }), { status: 400, body: { code: 'BAD_REQUEST' } }, rotationPeriod);
    }
  });

  check(`${store}: encrypt and MAC use the newest version; decrypt and verify take a version, version 1 without one`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice);
    const old = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('before'), aad: b64('a') })).body;
    t.is(old.version, 1);
    const oldMac = (await alice.post('/api/crypto/mac', { ttag, data: b64('m') })).body;
    await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`);
    const fresh = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('after') })).body;
    t.is(fresh.version, 2);
    const { alg: _a, version: _v, sealed: _s, ...sealedOld } = old;
    t.like(await alice.post('/api/crypto/decrypt', { ttag, ...sealedOld, aad: b64('a') }), {
      status: 200,
      body: { plaintext: b64('before') },
    });
    const { alg: _b, version, sealed: _t, ...sealedNew } = fresh;
    t.like(await alice.post('/api/crypto/decrypt', { ttag, ...sealedNew, version }), { status: 200, body: { plaintext: b64('after') } });
    t.like(await alice.post('/api/crypto/decrypt', { ttag, ...sealedNew }), { status: 400, body: { code: 'DECRYPT_FAILED' } });
    t.like(await alice.post('/api/crypto/decrypt', { ttag, ...sealedNew, version: 3 }), {
      status: 404,
      body: { code: 'KEY_VERSION_NOT_FOUND' },
    });
    t.like(await alice.post('/api/crypto/decrypt', { ttag, ...sealedNew, version: 0 }), { status: 400, body: { code: 'BAD_REQUEST' } });
    t.like((await alice.post('/api/crypto/mac', { ttag, data: b64('m') })).body, { version: 2 });
    t.like(await alice.post('/api/crypto/mac/verify', { ttag, data: b64('m'), mac: oldMac.mac }), { status: 200, body: { valid: true } });
    t.like(await alice.post('/api/crypto/mac/verify', { ttag, data: b64('m'), mac: oldMac.mac, version: 2 }), {
      status: 200,
      body: { valid: false },
    });
  });

  check(`${store}: min-version retires older versions (409 KEY_VERSION_RETIRED) and never goes down`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice);
    const path = `/api/keys/${pathTtag(ttag)}`;
    const { alg: _a, version: _v, sealed: _s, ...sealed } = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('v1') })).body;
    const mac = (await alice.post('/api/crypto/mac', { ttag, data: b64('m') })).body.mac;
    await alice.post(`${path}/rotate`);
    t.like(await alice.put(`${path}/min-version`, { minVersion: 3 }), { status: 400, body: { code: 'BAD_REQUEST' } });
    const set = await alice.put(`${path}/min-version`, { minVersion: 2 });
    t.is(set.status, 200, set.text);
    t.like(set.body, {
      minVersion: 2,
      versions: [
        { version: 1, state: 'retired' },
        { version: 2, state: 'active' },
      ],
    });
    t.like(await alice.post('/api/crypto/decrypt', { ttag, ...sealed }), { status: 409, body: { code: 'KEY_VERSION_RETIRED' } });
    t.like(await alice.post('/api/crypto/mac/verify', { ttag, data: b64('m'), mac }), {
      status: 409,
      body: { code: 'KEY_VERSION_RETIRED' },
    });
    const client = clientKeyPair();
    t.like(await alice.post(`${path}/export`, { clientPubKey: client.publicKey, version: 1 }), {
      status: 409,
      body: { code: 'KEY_VERSION_RETIRED' },
    });
    t.like(await alice.put(`${path}/min-version`, { minVersion: 1 }), { status: 409, body: { code: 'CONFLICT' } });
    const bob = await signIn(gw, 'bob');
    await alice.put(`${path}/acl/bob`, { rights: ['read', 'rotate', 'export'] });
    t.like(await bob.put(`${path}/min-version`, { minVersion: 2 }), { status: 403 });
  });

  check(
    `${store}: rewrap turns an old ciphertext into one of the newest version; once its version is retired the old one stays refused`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice);
      const {
        alg: _a,
        version: _v,
        sealed: _s,
        ...old
      } = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('keep me'), aad: b64('ctx') })).body;
      await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`);
      const rewrapped = await alice.post('/api/crypto/rewrap', { ttag, ...old, aad: b64('ctx') });
      t.is(rewrapped.status, 200, rewrapped.text);
      t.is(rewrapped.body.version, 2);
      t.false('plaintext' in rewrapped.body);
      t.not(rewrapped.body.ciphertext, old.ciphertext);
      await alice.put(`/api/keys/${pathTtag(ttag)}/min-version`, { minVersion: 2 });
      const { alg: _b, sealed: _t, ...fresh } = rewrapped.body;
      t.like(await alice.post('/api/crypto/decrypt', { ttag, ...fresh, aad: b64('ctx') }), {
        status: 200,
        body: { plaintext: b64('keep me') },
      });
      t.like(await alice.post('/api/crypto/decrypt', { ttag, ...old, aad: b64('ctx') }), {
        status: 409,
        body: { code: 'KEY_VERSION_RETIRED' },
      });
      t.like(await alice.post('/api/crypto/rewrap', { ttag, ...old, aad: b64('ctx') }), {
        status: 409,
        body: { code: 'KEY_VERSION_RETIRED' },
      });
      const bob = await signIn(gw, 'bob');
      await alice.put(`/api/keys/${pathTtag(ttag)}/acl/bob`, { rights: ['decrypt'] });
      t.like(await bob.post('/api/crypto/rewrap', { ttag, ...fresh, aad: b64('ctx') }), { status: 403, body: { code: 'ACL_DENIED' } });
    },
  );

  check(`${store}: export takes a version (default the newest) and names it; the audit names the versions`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice);
    const path = `/api/keys/${pathTtag(ttag)}`;
    const client = clientKeyPair();
    const first = await alice.post(`${path}/export`, { clientPubKey: client.publicKey });
    t.like(first.body, { version: 1, keyLen: 16 });
    await alice.post(`${path}/rotate`);
    const newest = await alice.post(`${path}/export`, { clientPubKey: client.publicKey });
    const one = await alice.post(`${path}/export`, { clientPubKey: client.publicKey, version: 1 });
    t.like(newest.body, { version: 2 });
    t.like(one.body, { version: 1 });
    t.deepEqual(client.unwrap(one.body.wrapped), client.unwrap(first.body.wrapped));
    t.notDeepEqual(client.unwrap(newest.body.wrapped), client.unwrap(first.body.wrapped));
    const auditor = await signIn(gw, 'audra');
    const records = (await auditor.get('/api/audit?limit=20')).body.items as { operation: string; version?: number; object?: string }[];
    const mine = records.filter((r) => r.object === ttag).map((r) => `${r.operation} ${r.version}`);
    t.deepEqual(mine.sort(), ['keys.create 1', 'keys.export 1', 'keys.export 1', 'keys.export 2', 'keys.rotate 2']);
  });
}
