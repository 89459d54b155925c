import { createDecipheriv, createECDH, hkdfSync } from 'node:crypto';
import test from 'ava';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { startGateway } from '../_support/gateway.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const PLAIN_FAILURE = 'the ciphertext does not decrypt under this key (authentication tag mismatch)';
const hint = (newest: number) =>
  `the ciphertext does not decrypt under version 1 of this key (authentication tag mismatch); the key has versions up to ${newest}: pass version, or use sealed`;

/** The separate fields of an encrypt answer, as a decrypt request takes them. */
function separate(answer: Record<string, unknown>) {
  const { ciphertext, iv, authTag } = answer;
  return { ciphertext, iv, authTag };
}

async function rotate(client: ApiSession, ttag: string): Promise<void> {
  const rotated = await client.post(`/api/keys/${pathTtag(ttag)}/rotate`);
  if (rotated.status !== 200) throw new Error(`rotate answered ${rotated.status}: ${rotated.text}`);
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(`${store}: encrypt, rotate, encrypt: each answer's sealed names its version and decrypts without a version`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice);
    const first = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('before'), aad: b64('a') })).body;
    await rotate(alice, ttag);
    const second = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('after'), aad: b64('a') })).body;
    t.regex(first.sealed, /^kg:v1:[A-Za-z0-9+/]+=*$/);
    t.regex(second.sealed, /^kg:v2:[A-Za-z0-9+/]+=*$/);
    t.like(await alice.post('/api/crypto/decrypt', { ttag, sealed: first.sealed, aad: b64('a') }), {
      status: 200,
      body: { plaintext: b64('before') },
    });
    t.like(await alice.post('/api/crypto/decrypt', { ttag, sealed: second.sealed, aad: b64('a') }), {
      status: 200,
      body: { plaintext: b64('after') },
    });
    // A version 1 ciphertext keeps opening with the separate fields and no version.
    t.like(await alice.post('/api/crypto/decrypt', { ttag, ...separate(first), aad: b64('a') }), {
      status: 200,
      body: { plaintext: b64('before') },
    });
    // The newer one without its version fails under version 1, and says the key has a version 2.
    t.deepEqual((await alice.post('/api/crypto/decrypt', { ttag, ...separate(second), aad: b64('a') })).body, {
      code: 'DECRYPT_FAILED',
      detail: hint(2),
    });
  });
}

test('a batch answers sealed in each encrypt item and takes sealed in decrypt and rewrap items', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const encrypted = await alice.post('/api/crypto/encrypt', { items: [{ ttag, plaintext: b64('one') }] });
  await rotate(alice, ttag);
  const again = await alice.post('/api/crypto/encrypt', { items: [{ ttag, plaintext: b64('two'), aad: b64('x') }] });
  const [one, two] = [encrypted.body.items[0], again.body.items[0]];
  t.like(one, { ok: true, version: 1 });
  t.regex(one.sealed, /^kg:v1:/);
  t.regex(two.sealed, /^kg:v2:/);
  const opened = await alice.post('/api/crypto/decrypt', {
    items: [
      { ttag, sealed: two.sealed, aad: b64('x') },
      { ttag, sealed: one.sealed },
      { ttag, sealed: two.sealed },
      { ttag, ...separate(one) },
    ],
  });
  t.is(opened.status, 200, opened.text);
  t.deepEqual(opened.body.items, [
    { ok: true, plaintext: b64('two') },
    { ok: true, plaintext: b64('one') },
    { ok: false, error: { code: 'DECRYPT_FAILED', detail: PLAIN_FAILURE } },
    { ok: true, plaintext: b64('one') },
  ]);
  const rewrapped = await alice.post('/api/crypto/rewrap', { items: [{ ttag, sealed: one.sealed }] });
  t.like(rewrapped.body.items[0], { ok: true, version: 2 });
  t.regex(rewrapped.body.items[0].sealed, /^kg:v2:/);
  const both = await alice.post('/api/crypto/decrypt', {
    items: [
      { ttag, sealed: one.sealed },
      { ttag, sealed: one.sealed, iv: Buffer.alloc(12, 7).toString('base64') },
    ],
  });
  t.like(both, { status: 400, body: { code: 'BAD_REQUEST' } });
  t.regex(both.body.detail, /^items\.1\.sealed: sealed and iv disagree/);
  const malformed = await alice.post('/api/crypto/rewrap', { items: [{ ttag, sealed: 'kg:v1:AAAA' }] });
  t.like(malformed, { status: 400, body: { code: 'BAD_REQUEST' } });
  t.regex(malformed.body.detail, /^items\.0\.sealed: /);
});

test('decrypt and rewrap take sealed or the separate fields, or both when they agree; disagreeing or neither is 400 naming the field', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const answer = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') })).body;
  const other = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('y') })).body;
  for (const path of ['/api/crypto/decrypt', '/api/crypto/rewrap']) {
    // An encrypt answer sent back as it came (but its alg) carries both forms, alike: taken.
    for (const extra of [
      { ciphertext: answer.ciphertext },
      { iv: answer.iv },
      { authTag: answer.authTag },
      { version: 1 },
      separate(answer),
    ]) {
      const reply = await alice.post(path, { ttag, sealed: answer.sealed, ...extra });
      t.is(reply.status, 200, `${path} ${Object.keys(extra)}`);
    }
    for (const [extra, field] of [
      [{ ciphertext: other.ciphertext }, 'ciphertext'],
      [{ iv: other.iv }, 'iv'],
      [{ authTag: other.authTag }, 'authTag'],
      [{ version: 2 }, 'version'],
    ] as const) {
      const reply = await alice.post(path, { ttag, sealed: answer.sealed, ...extra });
      t.is(reply.status, 400, `${path} ${field}`);
      t.is(reply.body.code, 'BAD_REQUEST');
      t.regex(reply.body.detail, new RegExp(`^sealed: sealed and ${field} disagree`));
    }
    t.like(await alice.post(path, { ttag }), {
      status: 400,
      body: { code: 'BAD_REQUEST', detail: 'ciphertext: required (or send sealed instead)' },
    });
    t.like(await alice.post(path, { ttag, ciphertext: answer.ciphertext, authTag: answer.authTag }), {
      status: 400,
      body: { detail: 'iv: required (or send sealed instead)' },
    });
    t.like(await alice.post(path, { ttag, sealed: answer.sealed }), { status: 200 });
  }
});

test('a malformed sealed is 400 BAD_REQUEST naming sealed: prefix, version, base64, length', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const bytes = (n: number) => Buffer.alloc(n, 1).toString('base64');
  const cases: readonly (readonly [string, string])[] = [
    [`vault:v1:${bytes(40)}`, 'sealed: expected kg:v<version>:<base64>'],
    [`KG:v1:${bytes(40)}`, 'sealed: expected kg:v<version>:<base64>'],
    [`kg:1:${bytes(40)}`, 'sealed: expected kg:v<version>:<base64>'],
    [`kg:v0:${bytes(40)}`, 'sealed: the version is not an integer from 1 followed by ":"'],
    [`kg:v01:${bytes(40)}`, 'sealed: the version is not an integer from 1 followed by ":"'],
    [`kg:v-1:${bytes(40)}`, 'sealed: the version is not an integer from 1 followed by ":"'],
    [`kg:vx:${bytes(40)}`, 'sealed: the version is not an integer from 1 followed by ":"'],
    [`kg:v99999999999999999:${bytes(40)}`, 'sealed: the version is not an integer from 1 followed by ":"'],
    [`kg:v1${bytes(40)}`, 'sealed: the version is not an integer from 1 followed by ":"'],
    ['kg:v1:', 'sealed: expected at least 28 bytes, got 0'],
    [`kg:v1:${bytes(27)}`, 'sealed: expected at least 28 bytes, got 27'],
    [`kg:v1:${Buffer.alloc(40, 0xfb).toString('base64url')}`, 'sealed: not standard base64 after the version'],
    [`kg:v1:${bytes(40)}\n`, 'sealed: not standard base64 after the version'],
    [`kg:v1:${bytes(40).replace(/=+$/, '')}`, 'sealed: not standard base64 after the version'],
  ];
  for (const [sealed, detail] of cases) {
    t.deepEqual((await alice.post('/api/crypto/decrypt', { ttag, sealed })).body, { code: 'BAD_REQUEST', detail }, sealed);
  }
  t.like(await alice.post('/api/crypto/decrypt', { ttag, sealed: 42 }), { status: 400, body: { code: 'BAD_REQUEST' } });
  // Well-formed, but not a ciphertext of this key: the key server's DECRYPT_FAILED, not a parse error.
  t.like(await alice.post('/api/crypto/decrypt', { ttag, sealed: `kg:v1:${bytes(28)}` }), {
    status: 400,
    body: { code: 'DECRYPT_FAILED' },
  });
  t.like(await alice.post('/api/crypto/decrypt', { ttag, sealed: `kg:v2:${bytes(28)}` }), {
    status: 404,
    body: { code: 'KEY_VERSION_NOT_FOUND' },
  });
});

test('a decrypt without a version that fails on a key with later versions says so; with one version, or a version named, it does not', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const plain = { code: 'DECRYPT_FAILED', detail: PLAIN_FAILURE };
  const v1 = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('v1') })).body;
  const tampered = { ...separate(v1), authTag: Buffer.alloc(16).toString('base64') };
  t.deepEqual((await alice.post('/api/crypto/decrypt', { ttag, ...tampered })).body, plain);
  await rotate(alice, ttag);
  await rotate(alice, ttag);
  const v3 = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('v3') })).body;
  for (const path of ['/api/crypto/decrypt', '/api/crypto/rewrap']) {
    t.like(await alice.post(path, { ttag, ...separate(v3) }), { status: 400, body: { code: 'DECRYPT_FAILED', detail: hint(3) } }, path);
    t.deepEqual((await alice.post(path, { ttag, ...separate(v3), version: 2 })).body, plain, path);
    t.deepEqual((await alice.post(path, { ttag, ...tampered, version: 1 })).body, plain, path);
  }
  const other = await createKey(alice);
  const foreign = (await alice.post('/api/crypto/encrypt', { ttag: other.ttag, plaintext: b64('x') })).body;
  t.deepEqual((await alice.post('/api/crypto/decrypt', { ttag, sealed: foreign.sealed })).body, plain);
});

test('rewrap with sealed answers the sealed text of the newest version, which decrypts', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const v1 = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('keep'), aad: b64('ctx') })).body;
  await rotate(alice, ttag);
  await rotate(alice, ttag);
  const rewrapped = await alice.post('/api/crypto/rewrap', { ttag, sealed: v1.sealed, aad: b64('ctx') });
  t.is(rewrapped.status, 200, rewrapped.text);
  t.deepEqual(Object.keys(rewrapped.body).sort(), ['alg', 'authTag', 'ciphertext', 'iv', 'sealed', 'version']);
  t.is(rewrapped.body.version, 3);
  t.regex(rewrapped.body.sealed, /^kg:v3:/);
  t.like(await alice.post('/api/crypto/decrypt', { ttag, sealed: rewrapped.body.sealed, aad: b64('ctx') }), {
    status: 200,
    body: { plaintext: b64('keep') },
  });
  t.like(await alice.post('/api/crypto/rewrap', { ttag, sealed: v1.sealed }), { status: 400, body: { code: 'DECRYPT_FAILED' } });
});

/**
 * Read from docs/spec.md §4.5 alone: `kg:v<version>:<standard base64 of iv || ciphertext || authTag>`,
 * a 12-byte iv and a 16-byte tag.
 */
function parseSealedBySpec(sealed: string): { version: number; iv: Buffer; ciphertext: Buffer; authTag: Buffer } {
  const match = /^kg:v([1-9][0-9]*):([A-Za-z0-9+/]*={0,2})$/.exec(sealed);
  if (match === null) throw new Error(`not sealed text: ${sealed}`);
  const bytes = Buffer.from(match[2]!, 'base64');
  return {
    version: Number(match[1]),
    iv: bytes.subarray(0, 12),
    ciphertext: bytes.subarray(12, bytes.length - 16),
    authTag: bytes.subarray(bytes.length - 16),
  };
}

/** docs/spec.md §3.2 with Node's crypto alone: ECDH X coordinate, HKDF-SHA256 `keygate export v1`, AES-256-GCM. */
function unwrapBySpec(privateKey: Buffer, wrapped: Record<string, string>): Buffer {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  const secret = ecdh.computeSecret(Buffer.from(wrapped.gatewayPubKey!, 'base64'));
  const aesKey = Buffer.from(hkdfSync('sha256', secret, Buffer.from(wrapped.salt!, 'base64'), 'keygate export v1', 32));
  const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(wrapped.iv!, 'base64'));
  decipher.setAuthTag(Buffer.from(wrapped.authTag!, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(wrapped.ciphertext!, 'base64')), decipher.final()]);
}

test("a holder of the exported version opens sealed text with Node's crypto, reading it as docs/spec.md §4.5 describes", async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice, { keyLen: 32 });
  await rotate(alice, ttag);
  const answer = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('portable'), aad: b64('bound') })).body;
  const parsed = parseSealedBySpec(answer.sealed);
  t.is(parsed.version, 2);
  const client = clientKeyPair();
  const exported = await alice.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey, version: parsed.version });
  t.is(exported.body.version, 2, exported.text);
  const key = unwrapBySpec(client.privateKey, exported.body.wrapped);
  const decipher = createDecipheriv('aes-256-gcm', key, parsed.iv);
  decipher.setAAD(Buffer.from('bound'));
  decipher.setAuthTag(parsed.authTag);
  t.is(Buffer.concat([decipher.update(parsed.ciphertext), decipher.final()]).toString(), 'portable');
  t.deepEqual(
    [parsed.iv, parsed.ciphertext, parsed.authTag].map((part) => part.toString('base64')),
    [answer.iv, answer.ciphertext, answer.authTag],
  );
});
