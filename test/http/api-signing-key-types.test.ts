import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/** docs/spec.md §4.25 item 1: a key's type at creation, in its view, through a rotation, on every store. */
for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(`${store}: POST /api/keys makes a signing key of each type with its defaults; an aes key is as before`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const defaults = { 'ec-p256': 'ES256', 'ec-p384': 'ES384', ed25519: 'EdDSA', 'rsa-2048': 'RS256' } as const;
    for (const [type, alg] of Object.entries(defaults)) {
      const key = await createKey(alice, { type });
      t.like(key, { type, alg, exportable: false, published: false, jwtMaxLifetime: 3600, version: 1 }, type);
      t.false('keyLen' in key || 'algo' in key, `${type}: no keyLen nor algo`);
      const read = await alice.get(`/api/keys/${pathTtag(key.ttag)}`);
      t.like(read.body, { type, alg });
    }
    const aes = await createKey(alice, {});
    t.like(aes, { type: 'aes', keyLen: 16, algo: 'aes-128-cbc' });
    t.false('alg' in aes || 'exportable' in aes || 'published' in aes || 'jwtMaxLifetime' in aes);
    const chosen = await createKey(alice, { type: 'rsa-2048', alg: 'PS384', exportable: true, jwtMaxLifetime: 60 });
    t.like(chosen, { type: 'rsa-2048', alg: 'PS384', exportable: true, jwtMaxLifetime: 60 });
    const rotated = await alice.post(`/api/keys/${pathTtag(chosen.ttag)}/rotate`, {});
    t.is(rotated.status, 200, rotated.text);
    t.like(rotated.body, { type: 'rsa-2048', alg: 'PS384', version: 2 });
  });

  check(`${store}: POST /api/keys refuses a field its type does not take, naming it`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const refused: [Record<string, unknown>, string][] = [
      [{ type: 'ec-p256', keyLen: 32 }, 'keyLen'],
      [{ type: 'ec-p256', alg: 'RS256' }, 'alg'],
      [{ type: 'ed25519', alg: 'ES256' }, 'alg'],
      [{ alg: 'ES256' }, 'alg'],
      [{ type: 'aes', exportable: false }, 'exportable'],
      [{ jwtMaxLifetime: 600 }, 'jwtMaxLifetime'],
      [{ type: 'ec-p256', jwtMaxLifetime: 59 }, 'jwtMaxLifetime'],
      [{ type: 'ec-p256', jwtMaxLifetime: 2_592_001 }, 'jwtMaxLifetime'],
      [{ type: 'dsa-1024' }, 'type'],
      [{ type: 'ec-p256', alg: 'HS256' }, 'alg'],
    ];
    for (const [body, field] of refused) {
      const reply = await alice.post('/api/keys', body);
      t.is(reply.status, 400, JSON.stringify(body));
      t.is(reply.body.code, 'BAD_REQUEST');
      t.true(String(reply.body.detail).startsWith(field), `${JSON.stringify(body)}: ${reply.body.detail}`);
    }
  });
}

test('an aes key made with exportable: true is an aes key as before (the export right governs it)', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice, { exportable: true, keyLen: 32 });
  t.like(key, { type: 'aes', keyLen: 32 });
});
