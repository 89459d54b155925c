import { createDecipheriv, createECDH, hkdfSync } from 'node:crypto';
import test from 'ava';
import { calculateJwkThumbprint, compactVerify, createLocalJWKSet, importPKCS8, SignJWT } from 'jose';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import type { TestGateway } from '../_support/gateway.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/**
 * docs/spec.md §4.25 item 7: the owner publishes a signing key's JWKS (PUT .../published, a verified
 * write), and any caller without a session fetches it at /jwks/{name}.json and /jwks/keys/{ttag}.json,
 * cacheable, with a strong ETag; whatever is not a published, active signing key is 404 alike. Checked
 * with jose over a private key exported from the gateway and unwrapped here (§3.2 with Node's crypto).
 */

const JWKS_CACHE_MS = 1000;

/** An exportable key's newest version as a PKCS#8 PEM, unwrapped by the client's side of §3.2. */
async function exportedPem(session: ApiSession, ttag: string): Promise<string> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: ecdh.getPublicKey('base64') });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  const w = reply.body.wrapped;
  const b = (value: string) => Buffer.from(value, 'base64');
  const aesKey = Buffer.from(hkdfSync('sha256', ecdh.computeSecret(b(w.gatewayPubKey)), b(w.salt), 'keygate export v1', 32));
  const decipher = createDecipheriv('aes-256-gcm', aesKey, b(w.iv));
  decipher.setAuthTag(b(w.authTag));
  const der = Buffer.concat([decipher.update(b(w.ciphertext)), decipher.final()]);
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64')}\n-----END PRIVATE KEY-----\n`;
}

/** The JWKS path of a key by ttag: its standard base64 percent-encoded. */
const byTtag = (ttag: string) => `/jwks/keys/${encodeURIComponent(ttag)}.json`;

const fetchJwks = (gw: TestGateway, path: string, headers: Record<string, string> = {}) => gw.call('GET', path, { headers });

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: a published key's JWKS is served without a session by alias and by ttag, cacheable, and verifies its signatures`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice, { type: 'ec-p256', exportable: true });
      t.is((await alice.put('/api/aliases/issuer', { ttag })).status, 200);
      t.is((await fetchJwks(gw, '/jwks/issuer.json')).status, 404, 'not published yet');

      const published = await alice.put(`/api/keys/${pathTtag(ttag)}/published`, { published: true });
      t.is(published.status, 200, published.text);
      t.like(published.body, { ttag, type: 'ec-p256', published: true });
      t.like((await alice.get(`/api/keys/${pathTtag(ttag)}`)).body, { published: true });
      gw.clock.advance(JWKS_CACHE_MS); // the answer of before was a copy a gateway may keep one second

      const byName = await fetchJwks(gw, '/jwks/issuer.json');
      t.is(byName.status, 200, byName.text);
      t.is(byName.headers.get('cache-control'), 'public, max-age=60');
      t.regex(byName.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]+"$/, 'a strong ETag');
      t.regex(byName.headers.get('content-type') ?? '', /^application\/json/);
      const [jwk] = byName.body.keys;
      t.is(byName.body.keys.length, 1);
      t.like(jwk, { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      t.is(jwk.kid, await calculateJwkThumbprint(jwk));
      t.false('d' in jwk, 'no private member');
      const byKey = await fetchJwks(gw, byTtag(ttag));
      t.is(byKey.status, 200, byKey.text);
      t.is(byKey.text, byName.text);
      t.is((await fetchJwks(gw, `/jwks/keys/${pathTtag(ttag)}.json`)).text, byName.text, 'base64url names it too');

      const notModified = await fetchJwks(gw, '/jwks/issuer.json', { 'If-None-Match': byName.headers.get('etag')! });
      t.is(notModified.status, 304);
      t.is(notModified.text, '');

      const jws = await new SignJWT({ sub: 'svc' })
        .setProtectedHeader({ alg: 'ES256', kid: jwk.kid })
        .sign(await importPKCS8(await exportedPem(alice, ttag), 'ES256'));
      const verified = await compactVerify(jws, createLocalJWKSet(byName.body));
      t.is(verified.protectedHeader.kid, jwk.kid);
    },
  );

  check(
    `${store}: PUT published is the owner's, for a signing key only; withdrawn or not active, the JWKS is 404 like an unknown name`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const bob = await signIn(gw, 'bob');
      const { ttag } = await createKey(alice, { type: 'ed25519' });
      const path = `/api/keys/${pathTtag(ttag)}/published`;
      t.is((await alice.put(`/api/keys/${pathTtag(ttag)}/acl/bob`, { rights: ['read', 'sign'] })).status, 200);
      const foreign = await bob.put(path, { published: true });
      t.is(foreign.status, 403, foreign.text);
      t.is(foreign.body.code, 'ACL_DENIED');
      const { ttag: aes } = await createKey(alice);
      const symmetric = await alice.put(`/api/keys/${pathTtag(aes)}/published`, { published: true });
      t.is(symmetric.status, 409, symmetric.text);
      t.is(symmetric.body.code, 'KEY_TYPE_MISMATCH');
      const bad = await alice.put(path, { published: 'yes' });
      t.is(bad.status, 400);
      t.true(String(bad.body.detail).startsWith('published'), bad.text);
      t.is((await alice.put(path, {})).status, 400);

      t.is((await alice.put(path, { published: true })).status, 200);
      t.is((await fetchJwks(gw, byTtag(ttag))).status, 200);
      t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/disable`, {})).status, 200);
      gw.clock.advance(JWKS_CACHE_MS);
      const disabled = await fetchJwks(gw, byTtag(ttag));
      t.is(disabled.status, 404, 'a disabled key publishes nothing');
      t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/enable`, {})).status, 200);
      gw.clock.advance(JWKS_CACHE_MS);
      t.is((await fetchJwks(gw, byTtag(ttag))).status, 200);
      const withdrawn = await alice.put(path, { published: false });
      t.is(withdrawn.status, 200, withdrawn.text);
      t.is(withdrawn.body.published, false);
      gw.clock.advance(JWKS_CACHE_MS);
      const gone = await fetchJwks(gw, byTtag(ttag));
      t.is(gone.status, 404);
      const unknown = [
        '/jwks/nobody.json',
        byTtag(Buffer.alloc(24, 9).toString('base64')),
        byTtag(aes),
        '/jwks/keys/not%20a%20ttag.json',
        '/jwks/%00.json',
        '/jwks/%E0%A4%A.json',
      ];
      for (const missing of unknown) {
        const reply = await fetchJwks(gw, missing);
        t.is(reply.status, 404, missing);
        t.deepEqual(reply.body, gone.body, `${missing}: answered as any other`);
      }
    },
  );
}

test('the published JWKS is not audited and refuses other methods; a copy is kept at most one second', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice, { type: 'ec-p384' });
  t.is((await alice.put(`/api/keys/${pathTtag(ttag)}/published`, { published: true })).status, 200);
  const first = await fetchJwks(gw, byTtag(ttag));
  t.is(first.status, 200, first.text);
  t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`, {})).status, 200);
  t.is((await fetchJwks(gw, byTtag(ttag))).text, first.text, 'the copy, within its second');
  gw.clock.advance(JWKS_CACHE_MS);
  const rotated = await fetchJwks(gw, byTtag(ttag));
  t.is(rotated.body.keys.length, 2, 'newest first, the older version still there');
  t.is(rotated.body.keys[1].kid, first.body.keys[0].kid);
  t.not(rotated.headers.get('etag'), first.headers.get('etag'));
  const post = await gw.call('POST', byTtag(ttag), { body: {} });
  t.is(post.status, 405);
  t.is(post.headers.get('allow'), 'GET, HEAD');
  const audra = await signIn(gw, 'audra');
  const records = await audra.get('/api/audit?limit=500');
  t.is(records.status, 200, records.text);
  const operations = (records.body.items as { operation: string }[]).map((record) => record.operation);
  t.true(operations.includes('keys.publish'));
  t.false(
    operations.some((operation) => operation.includes('jwks')),
    operations.join(),
  );
});
