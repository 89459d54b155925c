import test from 'ava';
import {
  KeygateAdmin,
  KeygateApiError,
  KeygateClient,
  type KeygateSession,
  newXWingKeyPair,
  ProofKey,
  ReauthRequiredError,
} from '../../src/client/index.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';

/** The client against a real gateway on a real socket, on the gateway's manual clock. */
function clientOf(gw: TestGateway): KeygateClient {
  return new KeygateClient({ baseUrl: gw.url, now: () => gw.clock.now() });
}

async function aliceWithKey(gw: TestGateway, keyLen: 16 | 24 | 32 = 32) {
  const alice = await clientOf(gw).login('alice', PASSWORDS.alice);
  const key = await alice.createKey({ keyLen, label: 'client test' });
  return { alice, key };
}

/** The same key exported through the seven-operation POST /keys/export by a Node client. */
async function exportedBySevenOperations(gw: TestGateway, ttag: string): Promise<Buffer> {
  const session = await gw.login('alice');
  const pair = clientKeyPair();
  const reply = await gw.call('POST', '/keys/export', { headers: { 'X-Session': session }, body: { ttag, clientPubKey: pair.publicKey } });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return pair.unwrap(reply.body.wrapped);
}

test('login answers an unbound password session whose view carries no session id', async (t) => {
  const gw = await startGateway(t);
  const alice = await clientOf(gw).login('alice', PASSWORDS.alice);
  t.false(alice.bound);
  t.like(alice.view, { user: 'alice', kind: 'password', bound: false });
  t.false('sessionId' in (alice.view ?? {}));
  t.false(JSON.stringify(alice).includes(alice.sessionId), 'toJSON never shows the session id');
  t.like(await alice.inspect(), { user: 'alice', kind: 'password' });
});

test('a wrong password is a KeygateApiError with the contract code', async (t) => {
  const gw = await startGateway(t);
  const error = await t.throwsAsync(clientOf(gw).login('alice', 'wrong'), { instanceOf: KeygateApiError });
  t.is(error?.status, 401);
  t.is(error?.code, 'WRONG_CREDENTIAL');
});

test('a scoped session is bound to the client key, and its proofs are accepted on every call', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw);
  const proofKey = await ProofKey.generate();
  const scoped = await alice.mintScoped({ objects: [key.ttag], proofKey, ttlSeconds: 120 });
  t.true(scoped.bound);
  t.like(scoped.view, { kind: 'scoped', bound: true, jkt: proofKey.jkt, objects: [key.ttag] });
  t.like(await scoped.inspect(), { kind: 'scoped', jkt: proofKey.jkt });
  t.like(await scoped.readKey(key.ttag), { ttag: key.ttag, keyLen: 32, state: 'active' });
  t.deepEqual([...(await scoped.access(key.ttag))].sort(), ['decrypt', 'encrypt', 'export', 'mac', 'read', 'rotate', 'sign', 'tag']);
  // Without its proof key the same session is refused: the constraint belongs to the session.
  const stolen = await t.throwsAsync(clientOf(gw).resume(scoped.sessionId).inspect(), { instanceOf: KeygateApiError });
  t.is(stolen?.code, 'PROOF_MISSING');
  const otherKey = await t.throwsAsync(
    clientOf(gw)
      .resume(scoped.sessionId, await ProofKey.generate())
      .inspect(),
    { instanceOf: KeygateApiError },
  );
  t.is(otherKey?.code, 'PROOF_KEY_MISMATCH');
});

for (const keyLen of [16, 24, 32] as const) {
  test(`an export opened by the client equals the key seen through POST /keys/export (${keyLen} bytes)`, async (t) => {
    const gw = await startGateway(t);
    const { alice, key } = await aliceWithKey(gw, keyLen);
    const scoped = await alice.mintScoped({ objects: [key.ttag] });
    const exported = await scoped.exportKey(key.ttag);
    t.is(exported.keyLen, keyLen);
    t.is(exported.algo, 'aes-128-cbc');
    t.deepEqual(Buffer.from(exported.key), await exportedBySevenOperations(gw, key.ttag));
  });
}

test('encrypt then decrypt through a bound session gives the plaintext back, with and without aad', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw);
  const scoped = await alice.mintScoped({ objects: [key.ttag] });
  const sealed = await scoped.encrypt(key.ttag, 'attack at dawn ✓');
  t.is(sealed.alg, 'A256GCM');
  t.is(Buffer.from(await scoped.decrypt(key.ttag, sealed)).toString('utf8'), 'attack at dawn ✓');
  const bytes = new Uint8Array([0, 1, 2, 250, 251, 255]);
  const withAad = await scoped.encrypt(key.ttag, bytes, 'context');
  t.deepEqual(Buffer.from(await scoped.decrypt(key.ttag, withAad, 'context')), Buffer.from(bytes));
  const wrongAad = await t.throwsAsync(scoped.decrypt(key.ttag, withAad, 'other'), { instanceOf: KeygateApiError });
  t.like(wrongAad, { status: 400, code: 'DECRYPT_FAILED' });
});

test('the client sends sealed text back: an answer across a rotation, the bare string, and batch items', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw);
  const before = await alice.encrypt(key.ttag, 'before', 'ctx');
  t.regex(before.sealed ?? '', /^kg:v1:/);
  await alice.rotateKey(key.ttag);
  const after = await alice.encrypt(key.ttag, 'after', 'ctx');
  t.regex(after.sealed ?? '', /^kg:v2:/);
  t.is(Buffer.from(await alice.decrypt(key.ttag, after, 'ctx')).toString(), 'after');
  t.is(Buffer.from(await alice.decrypt(key.ttag, before.sealed!, 'ctx')).toString(), 'before');
  const rewrapped = await alice.rewrap(key.ttag, before.sealed!, 'ctx');
  t.like(rewrapped, { version: 2 });
  const items = await alice.batch('decrypt', [
    { ttag: key.ttag, sealed: rewrapped.sealed!, aad: Buffer.from('ctx').toString('base64') },
    { ttag: key.ttag, ...after, aad: Buffer.from('ctx').toString('base64') },
  ]);
  t.deepEqual(items, [
    { ok: true, plaintext: Buffer.from('before').toString('base64') },
    { ok: true, plaintext: Buffer.from('after').toString('base64') },
  ]);
});

test('a data key made through a bound session unwraps with WebCrypto, and its blob reopens to the same key', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw, 16);
  const scoped = await alice.mintScoped({ objects: [key.ttag] });
  const made = await scoped.generateDataKey(key.ttag, { keyLen: 24 });
  t.is(made.key?.length, 24);
  t.deepEqual([made.keyLen, made.version], [24, 1]);
  const opened = await scoped.openDataKey(key.ttag, made.blob);
  t.deepEqual(Buffer.from(opened.key), Buffer.from(made.key!));
  const bare = await scoped.generateDataKey(key.ttag, { deliver: false });
  t.deepEqual(Object.keys(bare).sort(), ['blob', 'keyLen', 'version']);
  t.is((await scoped.openDataKey(key.ttag, bare.blob)).key.length, 32);
  const other = await alice.createKey({ keyLen: 16 });
  const refused = await t.throwsAsync(alice.openDataKey(other.ttag, made.blob), { instanceOf: KeygateApiError });
  t.like(refused, { status: 400, code: 'DECRYPT_FAILED' });
});

test('with clientKey: newXWingKeyPair the client sends a fresh X-Wing key and opens the HPKE wrap of §3.4: exports and data keys, the same bytes as by P-256', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw, 24);
  const exported = await alice.exportKey(key.ttag, { clientKey: newXWingKeyPair });
  t.like(exported, { keyLen: 24, algo: 'aes-128-cbc', version: 1 });
  t.deepEqual(Buffer.from(exported.key), Buffer.from((await alice.exportKey(key.ttag)).key));
  const signing = await alice.createKey({ type: 'ed25519', exportable: true });
  const pkcs8 = await alice.exportSigningKey(signing.ttag, { clientKey: newXWingKeyPair });
  t.deepEqual(Buffer.from(pkcs8.key), Buffer.from((await alice.exportSigningKey(signing.ttag)).key));
  const made = await alice.generateDataKey(key.ttag, { keyLen: 16, clientKey: newXWingKeyPair });
  t.is(made.key?.length, 16);
  t.deepEqual(Buffer.from((await alice.openDataKey(key.ttag, made.blob, { clientKey: newXWingKeyPair })).key), Buffer.from(made.key!));
  t.deepEqual(Buffer.from((await alice.openDataKey(key.ttag, made.blob)).key), Buffer.from(made.key!));
});

test('encrypt, decrypt, rewrap, batches and data keys take a context, and need the same one again', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw);
  const context = { tenant: 'acme', purpose: 'billing' };
  const sealed = await alice.encrypt(key.ttag, 'bound', 'aad', context);
  t.is(Buffer.from(await alice.decrypt(key.ttag, sealed, 'aad', { purpose: 'billing', tenant: 'acme' })).toString(), 'bound');
  const refused = await t.throwsAsync(alice.decrypt(key.ttag, sealed, 'aad'), { instanceOf: KeygateApiError });
  t.like(refused, { status: 400, code: 'DECRYPT_FAILED' });
  const rewrapped = await alice.rewrap(key.ttag, sealed, 'aad', context);
  t.is(Buffer.from(await alice.decrypt(key.ttag, rewrapped, 'aad', context)).toString(), 'bound');
  const [item] = await alice.batch('encrypt', [{ ttag: key.ttag, plaintext: Buffer.from('item').toString('base64'), context }]);
  t.like(item, { ok: true });
  const opened = await alice.batch('decrypt', [
    { ttag: key.ttag, sealed: (item as { sealed: string }).sealed, context },
    { ttag: key.ttag, sealed: (item as { sealed: string }).sealed },
  ]);
  t.like(opened, [
    { ok: true, plaintext: Buffer.from('item').toString('base64') },
    { ok: false, error: { code: 'DECRYPT_FAILED' } },
  ]);
  const made = await alice.generateDataKey(key.ttag, { context });
  t.deepEqual(Buffer.from((await alice.openDataKey(key.ttag, made.blob, { context })).key), Buffer.from(made.key!));
  const withoutIt = await t.throwsAsync(alice.openDataKey(key.ttag, made.blob), { instanceOf: KeygateApiError });
  t.like(withoutIt, { status: 400, code: 'DECRYPT_FAILED' });
});

test('a batch of data keys made through the client unwraps each delivered key, and a batch of openings answers the same keys', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw, 16);
  const other = await alice.createKey({ keyLen: 16 });
  const scoped = await alice.mintScoped({ objects: [key.ttag] });
  const made = await scoped.generateDataKeys([
    { ttag: key.ttag, keyLen: 24 },
    { ttag: other.ttag },
    { ttag: key.ttag, deliver: false },
    { ttag: key.ttag },
  ]);
  t.like(made, [
    { ok: true, keyLen: 24, version: 1 },
    { ok: false, error: { code: 'OUT_OF_SCOPE' } },
    { ok: true, keyLen: 32 },
    { ok: true },
  ]);
  const [first, , bare, last] = made as Extract<(typeof made)[number], { ok: true }>[];
  t.is(first!.key?.length, 24);
  t.false('key' in bare!, 'an item not delivered answers its blob alone');
  t.is(last!.key?.length, 32);
  const opened = await scoped.openDataKeys([first!, bare!, last!].map((item) => ({ ttag: key.ttag, blob: item.blob })));
  const keys = opened.map((item) => (item.ok ? Buffer.from(item.key) : item.error.code));
  t.deepEqual(keys[0], Buffer.from(first!.key!));
  t.is((keys[1] as Buffer).length, 32);
  t.deepEqual(keys[2], Buffer.from(last!.key!));
  const refused = await alice.openDataKeys([{ ttag: other.ttag, blob: first!.blob }]);
  t.like(refused, [{ ok: false, error: { code: 'DECRYPT_FAILED' } }]);
  const [bound] = await alice.generateDataKeys([{ ttag: key.ttag, context: { tenant: 'acme' } }]);
  const blob = (bound as Extract<typeof bound, { ok: true }>).blob;
  const reopened = await alice.openDataKeys([
    { ttag: key.ttag, blob, context: { tenant: 'acme' } },
    { ttag: key.ttag, blob },
  ]);
  t.like(
    reopened,
    [
      { ok: true, keyLen: 32 },
      { ok: false, error: { code: 'DECRYPT_FAILED' } },
    ],
    'a blob opens only with its context',
  );
  t.deepEqual(Buffer.from((reopened[0] as { key: Uint8Array }).key), Buffer.from((bound as { key: Uint8Array }).key));
});

test('a MAC made through the client verifies, and a changed one does not', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw);
  const scoped = await alice.mintScoped({ objects: [key.ttag], rights: ['mac'] });
  const { mac, alg } = await scoped.mac(key.ttag, 'message');
  t.is(alg, 'HS256');
  t.true(await scoped.verifyMac(key.ttag, 'message', mac));
  t.false(await scoped.verifyMac(key.ttag, 'massage', mac));
  const denied = await t.throwsAsync(scoped.encrypt(key.ttag, 'x'), { instanceOf: KeygateApiError });
  t.like(denied, { status: 403 });
});

test('a scoped session cannot reach a key outside its object list', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw);
  const other = await alice.createKey();
  const scoped = await alice.mintScoped({ objects: [key.ttag] });
  const refused = await t.throwsAsync(scoped.exportKey(other.ttag), { instanceOf: KeygateApiError });
  t.like(refused, { status: 403, code: 'OUT_OF_SCOPE' });
});

test('the owner reads, sets and removes ACL entries through the client', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw);
  t.like(await alice.setAclEntry(key.ttag, 'bob', ['read', 'encrypt']), { principal: 'bob', rights: ['read', 'encrypt'] });
  const acl = await alice.readAcl(key.ttag);
  t.like(acl, { owner: { user: 'alice' }, complete: true });
  t.deepEqual(acl.items, [{ principal: 'bob', rights: ['read', 'encrypt'] }]);
  const bob = await clientOf(gw).login('bob', PASSWORDS.bob);
  t.deepEqual([...(await bob.access(key.ttag))].sort(), ['encrypt', 'read']);
  await alice.removeAclEntry(key.ttag, 'bob');
  t.deepEqual((await alice.readAcl(key.ttag)).items, []);
  const denied = await t.throwsAsync(bob.readKey(key.ttag), { instanceOf: KeygateApiError });
  t.like(denied, { status: 403, code: 'ACL_DENIED' });
});

test('logout of a bound session is signed too, and the session is then unknown', async (t) => {
  const gw = await startGateway(t);
  const { alice, key } = await aliceWithKey(gw);
  const scoped: KeygateSession = await alice.mintScoped({ objects: [key.ttag] });
  await scoped.logout();
  const after = await t.throwsAsync(scoped.inspect(), { instanceOf: KeygateApiError });
  t.like(after, { status: 401, code: 'SESSION_UNKNOWN' });
  t.false(after instanceof ReauthRequiredError);
  await alice.logout();
  await t.throwsAsync(alice.inspect(), { instanceOf: KeygateApiError, message: /SESSION_UNKNOWN/ });
});

test('an expired key-server token surfaces as a ReauthRequiredError the page can act on', async (t) => {
  const gw = await startGateway(t, { keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin, tokenTtlSeconds: 60 } });
  const client = clientOf(gw);
  const alice = await client.login('alice', PASSWORDS.alice);
  await alice.createKey();
  gw.clock.advance(60_001);
  const error = await t.throwsAsync(alice.createKey(), { instanceOf: ReauthRequiredError });
  t.like(error, { status: 401, code: 'SESSION_EXPIRED', reauth: true });
  const again = await client.login('alice', PASSWORDS.alice);
  t.like(await again.createKey(), { keyLen: 16, state: 'active' });
});

test('the health call needs no session and shows the key-server fingerprint', async (t) => {
  const gw = await startGateway(t);
  const health = await clientOf(gw).health();
  t.true(health.ok);
  t.is(health.ksFingerprint, gw.gateway.ksFingerprint);
});

test('a base URL with a trailing slash signs the URL it sends to', async (t) => {
  const gw = await startGateway(t);
  const client = new KeygateClient({ baseUrl: `${gw.url}/`, now: () => gw.clock.now() });
  const alice = await client.login('alice', PASSWORDS.alice);
  const key = await alice.createKey();
  const scoped = await alice.mintScoped({ objects: [key.ttag] });
  t.like(await scoped.readKey(key.ttag), { ttag: key.ttag });
});

test('loginWithJwt signs a workload in with its token, bound to a ProofKey its token names in cnf.jkt', async (t) => {
  const gw = await startGateway(t);
  const { exportJWK, generateKeyPair, SignJWT } = await import('jose');
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const admin = new KeygateAdmin(await clientOf(gw).login('admin', PASSWORDS.admin));
  await admin.putIssuer('cluster', {
    issuer: 'https://k8s.example',
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1' }] },
    audiences: ['keygate'],
    algorithms: ['ES256'],
    principal: '{sub}',
  });
  const proofKey = await ProofKey.generate();
  const now = Math.floor(gw.clock.now() / 1000);
  const token = await new SignJWT({ iss: 'https://k8s.example', sub: 'svc', aud: 'keygate', exp: now + 300, cnf: { jkt: proofKey.jkt } })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .sign(privateKey);
  const session = await clientOf(gw).loginWithJwt(token, { proofKey });
  t.like(session.view, { user: 'svc', kind: 'jwt', bound: true, jkt: proofKey.jkt });
  t.like(await session.inspect(), { user: 'svc', bound: true });
  const refused = await clientOf(gw)
    .loginWithJwt(token)
    .catch((error: unknown) => error);
  t.true(refused instanceof KeygateApiError && refused.code === 'WRONG_CREDENTIAL');
});
