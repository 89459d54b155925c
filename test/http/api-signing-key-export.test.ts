import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import test from 'ava';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { testUnless } from '../_support/skip.js';
import { specClientKey, specUnwrap } from '../_support/spec-unwrap.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/**
 * docs/spec.md §4.25 item 1 "Export": a signing key made `exportable` exports its version's PKCS#8 wrapped
 * exactly as §3.2 wraps raw key bytes. The unwrap here is the client's side written from the spec with
 * Node's crypto alone (ECDH P-256, HKDF-SHA256 info `keygate export v1`, AES-256-GCM); nothing of src/.
 */

/** The exported private key of a version, loaded by Node from its PKCS#8 DER. */
async function exportPrivateKey(
  session: ApiSession,
  ttag: string,
  version?: number,
): Promise<{ key: KeyObject; body: Record<string, unknown> }> {
  const client = specClientKey();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, {
    clientPubKey: client.publicKey,
    ...(version === undefined ? {} : { version }),
  });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  const der = specUnwrap(reply.body.wrapped, client.ecdh, 'keygate export v1');
  return { key: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }), body: reply.body };
}

/** A signature by the private key checked with its public half alone (the hash each type signs with). */
function signsAndVerifies(privateKey: KeyObject): boolean {
  const message = Buffer.from('signed by an exported key');
  const hash = privateKey.asymmetricKeyType === 'ed25519' ? null : 'sha256';
  const signature = sign(hash, message, privateKey);
  return verify(hash, message, createPublicKey(privateKey), signature);
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(`${store}: an exportable signing key exports each version's PKCS#8, wrapped as §3.2 wraps a key`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const types = { 'ec-p256': 'ec', ed25519: 'ed25519', 'rsa-2048': 'rsa' } as const;
    for (const [type, nodeType] of Object.entries(types)) {
      const { ttag } = await createKey(alice, { type, exportable: true });
      const first = await exportPrivateKey(alice, ttag);
      t.deepEqual(Object.keys(first.body).sort(), ['format', 'type', 'version', 'wrapped'], type);
      t.like(first.body, { type, format: 'pkcs8', version: 1 }, type);
      t.is(first.key.asymmetricKeyType, nodeType, type);
      t.true(signsAndVerifies(first.key), type);
      const rotated = await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`, {});
      t.is(rotated.status, 200, rotated.text);
      const second = await exportPrivateKey(alice, ttag);
      t.is(second.body.version, 2, type);
      const again = await exportPrivateKey(alice, ttag, 1);
      const spki = (key: KeyObject) => createPublicKey(key).export({ format: 'der', type: 'spki' });
      t.deepEqual(spki(again.key), spki(first.key), `${type}: version 1 is the same key pair on every export`);
      t.notDeepEqual(spki(second.key), spki(first.key), `${type}: a rotation made a fresh key pair`);
    }
    if (store === 'memory') {
      const { ttag } = await createKey(alice, { type: 'ec-p384', exportable: true });
      t.is((await exportPrivateKey(alice, ttag)).key.asymmetricKeyDetails?.namedCurve, 'secp384r1');
    }
  });

  check(
    `${store}: a signing key made without exportable is 409 KEY_TYPE_MISMATCH "not exportable"; an aes key exports as before`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice, { type: 'ec-p256' });
      const refused = await alice.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: specClientKey().publicKey });
      t.is(refused.status, 409, refused.text);
      t.deepEqual(refused.body, { code: 'KEY_TYPE_MISMATCH', detail: 'not exportable' });
      const { ttag: aes } = await createKey(alice, { keyLen: 32 });
      const exported = await alice.post(`/api/keys/${pathTtag(aes)}/export`, { clientPubKey: specClientKey().publicKey });
      t.is(exported.status, 200, exported.text);
      t.like(exported.body, { algo: 'aes-128-cbc', keyLen: 32, version: 1 });
      t.false('type' in exported.body || 'format' in exported.body);
    },
  );
}

test('the root surface refuses to export any signing key, exportable or not, with 403 "export denied or failed"', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  for (const exportable of [true, false]) {
    const { ttag } = await createKey(alice, { type: 'ed25519', exportable });
    const reply = await gw.call('POST', '/keys/export', {
      headers: { 'X-Session': alice.sessionId },
      body: { ttag, clientPubKey: specClientKey().publicKey },
    });
    t.is(reply.status, 403, reply.text);
    t.is(reply.body.error, 'export denied or failed');
    t.is(typeof reply.body.detail, 'string');
    t.false('wrapped' in reply.body);
  }
});
