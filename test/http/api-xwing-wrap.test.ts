import { createPrivateKey } from 'node:crypto';
import test from 'ava';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { HOSTILE } from '../_support/hostile-text.js';
import { testUnless } from '../_support/skip.js';
import { b64, specClientKey, specUnwrap } from '../_support/spec-unwrap.js';
import { specXWingKey, specXWingUnwrap, XWING_ALGO } from '../_support/spec-xwing.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/**
 * docs/spec.md §3.4: a clientPubKey that is an X-Wing public key is answered the HPKE wrap, on the
 * export (an aes key's raw bytes, an exportable signing key's PKCS#8) and on the data-key routes, on
 * every key-server store. Each wrap is opened by the client written from the spec in
 * test/_support/spec-xwing.ts (X-Wing from ML-KEM-768, X25519 and SHA3-256, the RFC 9180 key schedule
 * with node:crypto), and must give the bytes the P-256 wrap of §3.2 delivers.
 */

/** An export to a fresh client key of each kind: the answer to X-Wing, and both opened. */
async function exportBoth(session: ApiSession, ttag: string) {
  const xwing = specXWingKey();
  const p256 = specClientKey();
  const path = `/api/keys/${pathTtag(ttag)}/export`;
  const toXWing = await session.post(path, { clientPubKey: xwing.publicKey });
  const toP256 = await session.post(path, { clientPubKey: p256.publicKey });
  if (toXWing.status !== 200 || toP256.status !== 200) throw new Error(`export: ${toXWing.status} ${toXWing.text} / ${toP256.status}`);
  return {
    body: toXWing.body,
    opened: specXWingUnwrap(toXWing.body.wrapped, xwing.secretKey, 'keygate export v2'),
    expected: specUnwrap(toP256.body.wrapped, p256.ecdh, 'keygate export v1'),
  };
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: an export and a data key to an X-Wing key open, by HPKE as §3.4 says, to the bytes the P-256 wrap delivers`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');

      const { ttag } = await createKey(alice, { keyLen: 24 });
      const aes = await exportBoth(alice, ttag);
      t.deepEqual(Object.keys(aes.body).sort(), ['algo', 'keyLen', 'version', 'wrapped']);
      t.like(aes.body, { algo: 'aes-128-cbc', keyLen: 24, version: 1 }, 'algo and keyLen describe the key, not the wrap');
      t.deepEqual(Object.keys(aes.body.wrapped).sort(), ['algo', 'ciphertext', 'enc']);
      t.is(aes.body.wrapped.algo, XWING_ALGO);
      t.is(b64(aes.body.wrapped.enc).length, 1120);
      t.deepEqual(aes.opened, aes.expected);
      t.is(aes.opened.length, 24);

      const signing = await createKey(alice, { type: 'ec-p256', exportable: true });
      const pkcs8 = await exportBoth(alice, signing.ttag);
      t.like(pkcs8.body, { type: 'ec-p256', format: 'pkcs8', version: 1 });
      t.deepEqual(pkcs8.opened, pkcs8.expected);
      t.is(createPrivateKey({ key: pkcs8.opened, format: 'der', type: 'pkcs8' }).asymmetricKeyType, 'ec');

      const xwing = specXWingKey();
      const made = await alice.post('/api/crypto/datakey', { ttag, keyLen: 16, clientPubKey: xwing.publicKey });
      t.is(made.status, 200, made.text);
      t.deepEqual(Object.keys(made.body.wrapped).sort(), ['algo', 'ciphertext', 'enc']);
      const dataKey = specXWingUnwrap(made.body.wrapped, xwing.secretKey, 'keygate datakey v2');
      t.is(dataKey.length, 16);
      t.throws(
        () => specXWingUnwrap(made.body.wrapped, xwing.secretKey, 'keygate export v2'),
        undefined,
        'a wrapped data key is no wrapped export',
      );
      const again = specXWingKey();
      const opened = await alice.post('/api/crypto/datakey/open', { ttag, blob: made.body.blob, clientPubKey: again.publicKey });
      t.is(opened.status, 200, opened.text);
      t.deepEqual(specXWingUnwrap(opened.body.wrapped, again.secretKey, 'keygate datakey v2'), dataKey);
      t.not(opened.body.wrapped.enc, made.body.wrapped.enc, 'a fresh encapsulation every time');
      const p256 = specClientKey();
      const toP256 = await alice.post('/api/crypto/datakey/open', { ttag, blob: made.body.blob, clientPubKey: p256.publicKey });
      t.deepEqual(specUnwrap(toP256.body.wrapped, p256.ecdh, 'keygate datakey v1'), dataKey);
    },
  );
}

test('a clientPubKey of a wrong length, a 1,216-byte key the KEM refuses, or hostile text is 400 BAD_REQUEST on every route that takes one', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const blob = (await alice.post('/api/crypto/datakey', { ttag })).body.blob as string;
  const xwing = b64(specXWingKey().publicKey);
  const refused: [string, string][] = [
    ['1,215 bytes', xwing.subarray(0, 1215).toString('base64')],
    ['1,217 bytes', Buffer.concat([xwing, Buffer.from([0])]).toString('base64')],
    ['1,184 bytes (ML-KEM alone)', xwing.subarray(0, 1184).toString('base64')],
    ['66 bytes', Buffer.alloc(66, 4).toString('base64')],
    ['1,216 bytes of 0xff', Buffer.alloc(1216, 0xff).toString('base64')],
    ['1,216 bytes of zero', Buffer.alloc(1216).toString('base64')],
    ['base64url', xwing.toString('base64url')],
    ['base64 with a line break', `${xwing.toString('base64').slice(0, 800)}\n${xwing.toString('base64').slice(800)}`],
    ['base64 one character long', `${xwing.toString('base64')}A`],
    ...HOSTILE.map((hostile): [string, string] => [hostile.what, hostile.value]),
  ];
  const routes: [string, (clientPubKey: string) => object][] = [
    [`/api/keys/${pathTtag(ttag)}/export`, (clientPubKey) => ({ clientPubKey })],
    ['/api/crypto/datakey', (clientPubKey) => ({ ttag, clientPubKey })],
    ['/api/crypto/datakey/open', (clientPubKey) => ({ ttag, blob, clientPubKey })],
  ];
  for (const [path, body] of routes) {
    for (const [what, clientPubKey] of refused) {
      const reply = await alice.post(path, body(clientPubKey));
      t.deepEqual([reply.status, reply.body.code], [400, 'BAD_REQUEST'], `${path}: ${what}`);
      t.false('wrapped' in reply.body || 'blob' in reply.body, `${path}: ${what}`);
    }
  }
});

test('the root export takes P-256 only: an X-Wing key there is refused exactly as any key not 65 bytes long', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const session = await gw.login('alice');
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const rootExport = (clientPubKey: string) =>
    gw.call('POST', '/keys/export', { headers: { 'X-Session': session }, body: { ttag, clientPubKey } });

  const xwing = await rootExport(specXWingKey().publicKey);

  t.is(xwing.status, 400, xwing.text);
  t.deepEqual(xwing.body, { error: 'clientPubKey: expected 65 bytes, got 1216' });
  const short = await rootExport(Buffer.alloc(64, 4).toString('base64'));
  t.deepEqual(short.body, { error: 'clientPubKey: expected 65 bytes, got 64' });
  t.is((await rootExport(specClientKey().publicKey)).status, 200, 'a P-256 point exports as before');
});
