import { createDecipheriv, hkdfSync } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { Secret } from '../../src/domain/secret/secret.js';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';
import { HOSTILE } from '../_support/hostile-text.js';
import { seededDaemonKeyServer } from '../_support/seeded-daemon.js';
import { testUnless } from '../_support/skip.js';
import { specClientKey, specUnwrap } from '../_support/spec-unwrap.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/**
 * docs/spec.md §4.5b items 1-3: the encryption context on encrypt, decrypt, rewrap and the data-key
 * routes, bound in the additional data (and the blob), checked through a real gateway on each store.
 */

const b64 = (text: string) => Buffer.from(text).toString('base64');
const bytes = (text: string) => Buffer.from(text, 'base64');
const ACME = { tenant: 'acme', purpose: 'billing' };
/** The same members as ACME, sent in the other order. */
const ACME_REORDERED = { purpose: 'billing', tenant: 'acme' };
const OTHER = { tenant: 'globex', purpose: 'billing' };

type Outcome = [number, string | undefined];

async function outcome(reply: Promise<{ status: number; body: { code?: string } }>): Promise<Outcome> {
  const settled = await reply;
  return [settled.status, settled.body.code];
}

/** The separate fields of an encrypt answer, as a decrypt request takes them. */
function separate(answer: Record<string, unknown>) {
  const { ciphertext, iv, authTag, version } = answer;
  return { ciphertext, iv, authTag, version };
}

/** The raw key of a version, by export (§3), unwrapped by the spec-written client. */
async function exportVersion(session: ApiSession, ttag: string, version: number): Promise<Buffer> {
  const client = specClientKey();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey, version });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return specUnwrap(reply.body.wrapped, client.ecdh, 'keygate export v1');
}

/**
 * docs/spec.md §4.5b item 2, written here from the text alone: `keygate context v1`, the member count,
 * then each member by ascending name: name length (1 byte), name, value length (2 bytes, big-endian),
 * value (UTF-8).
 */
function specCanonical(context: Record<string, string>): Buffer {
  const names = Object.keys(context).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  if (names.length === 0) return Buffer.alloc(0);
  const parts = [Buffer.from('keygate context v1', 'ascii'), Buffer.from([names.length])];
  for (const name of names) {
    const value = Buffer.from(context[name]!, 'utf8');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(value.length);
    parts.push(Buffer.from([name.length]), Buffer.from(name, 'ascii'), length, value);
  }
  return Buffer.concat(parts);
}

/** AES-GCM by hand, as a holder of the exported key checks an encrypt answer (docs/spec.md §4.5). */
function specDecrypt(key: Buffer, answer: Record<string, string>, additional: Buffer): Buffer {
  const decipher = createDecipheriv(`aes-${key.length * 8}-gcm` as 'aes-256-gcm', key, bytes(answer.iv!));
  decipher.setAAD(additional);
  decipher.setAuthTag(bytes(answer.authTag!));
  return Buffer.concat([decipher.update(bytes(answer.ciphertext!)), decipher.final()]);
}

/** docs/spec.md §4.5a item 5 by hand: the seal's additional data is the blob's first 6 bytes, then the canonical context. */
function specOpenBlob(blob: Buffer, versionKey: Buffer, context: Record<string, string>): Buffer {
  const keyLen = blob[5]!;
  const sealKey = Buffer.from(hkdfSync('sha256', versionKey, Buffer.alloc(0), 'keygate datakey blob v1', 32));
  const decipher = createDecipheriv('aes-256-gcm', sealKey, blob.subarray(6, 18));
  decipher.setAAD(Buffer.concat([blob.subarray(0, 6), specCanonical(context)]));
  decipher.setAuthTag(blob.subarray(18 + keyLen));
  return Buffer.concat([decipher.update(blob.subarray(18, 18 + keyLen)), decipher.final()]);
}

/** Encrypt, decrypt and rewrap with and without a context, single and batch items. */
async function checkCiphertexts(t: ExecutionContext, alice: ApiSession, ttag: string): Promise<void> {
  const decrypt = (body: object) => alice.post('/api/crypto/decrypt', { ttag, ...body });
  const made = await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('bound'), aad: b64('a'), context: ACME });
  t.is(made.status, 200, made.text);
  t.deepEqual(Object.keys(made.body).sort(), ['alg', 'authTag', 'ciphertext', 'iv', 'sealed', 'version'], 'the answer carries no context');
  t.like(await decrypt({ ...separate(made.body), aad: b64('a'), context: ACME_REORDERED }), {
    status: 200,
    body: { plaintext: b64('bound') },
  });
  t.like(await decrypt({ sealed: made.body.sealed, aad: b64('a'), context: ACME }), { status: 200, body: { plaintext: b64('bound') } });
  t.deepEqual(await outcome(decrypt({ sealed: made.body.sealed, aad: b64('a'), context: OTHER })), [400, 'DECRYPT_FAILED'], 'another');
  t.deepEqual(await outcome(decrypt({ sealed: made.body.sealed, aad: b64('a') })), [400, 'DECRYPT_FAILED'], 'none');
  t.deepEqual(await outcome(decrypt({ sealed: made.body.sealed, aad: b64('a'), context: {} })), [400, 'DECRYPT_FAILED'], '{}');
  t.deepEqual(
    await outcome(decrypt({ sealed: made.body.sealed, aad: b64('a'), context: { tenant: 'acme' } })),
    [400, 'DECRYPT_FAILED'],
    'a part of it',
  );
  t.deepEqual(await outcome(decrypt({ sealed: made.body.sealed, context: ACME })), [400, 'DECRYPT_FAILED'], 'without its aad');

  const bare = await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('bare') });
  t.like(await decrypt({ sealed: bare.body.sealed }), { status: 200, body: { plaintext: b64('bare') } }, 'made and opened without');
  t.like(await decrypt({ sealed: bare.body.sealed, context: {} }), { status: 200, body: { plaintext: b64('bare') } }, '{} is none');
  t.deepEqual(await outcome(decrypt({ sealed: bare.body.sealed, context: ACME })), [400, 'DECRYPT_FAILED'], 'one made without');
  const empty = await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('empty'), context: {} });
  t.like(await decrypt({ sealed: empty.body.sealed }), { status: 200, body: { plaintext: b64('empty') } }, 'made with {}');

  t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`)).status, 200);
  const rewrapped = await alice.post('/api/crypto/rewrap', { ttag, sealed: made.body.sealed, aad: b64('a'), context: ACME });
  t.is(rewrapped.status, 200, rewrapped.text);
  t.is(rewrapped.body.version, 2);
  t.like(await decrypt({ sealed: rewrapped.body.sealed, aad: b64('a'), context: ACME }), {
    status: 200,
    body: { plaintext: b64('bound') },
  });
  t.deepEqual(await outcome(decrypt({ sealed: rewrapped.body.sealed, aad: b64('a') })), [400, 'DECRYPT_FAILED'], 'rewrap keeps it');
  t.deepEqual(
    await outcome(alice.post('/api/crypto/rewrap', { ttag, sealed: made.body.sealed, aad: b64('a'), context: OTHER })),
    [400, 'DECRYPT_FAILED'],
    'a rewrap under another context opens nothing',
  );

  const batch = await alice.post('/api/crypto/encrypt', {
    items: [
      { ttag, plaintext: b64('one'), context: ACME },
      { ttag, plaintext: b64('two'), context: OTHER },
      { ttag, plaintext: b64('three') },
    ],
  });
  t.is(batch.status, 200, batch.text);
  const [one, two, three] = batch.body.items as Record<string, string>[];
  const opened = await alice.post('/api/crypto/decrypt', {
    items: [
      { ttag, sealed: one!.sealed, context: ACME_REORDERED },
      { ttag, sealed: two!.sealed, context: ACME },
      { ttag, sealed: three!.sealed },
      { ttag, sealed: three!.sealed, context: OTHER },
    ],
  });
  t.is(opened.status, 200, opened.text);
  t.like(opened.body.items, [
    { ok: true, plaintext: b64('one') },
    { ok: false, error: { code: 'DECRYPT_FAILED' } },
    { ok: true, plaintext: b64('three') },
    { ok: false, error: { code: 'DECRYPT_FAILED' } },
  ]);
  const rewrappedItems = await alice.post('/api/crypto/rewrap', { items: [{ ttag, sealed: two!.sealed, context: OTHER }] });
  t.like(rewrappedItems.body.items, [{ ok: true, version: 2 }], rewrappedItems.text);
  t.deepEqual(await outcome(decrypt({ sealed: rewrappedItems.body.items[0].sealed })), [400, 'DECRYPT_FAILED'], 'a batch rewrap keeps it');
  t.like(await decrypt({ sealed: rewrappedItems.body.items[0].sealed, context: OTHER }), { status: 200, body: { plaintext: b64('two') } });
}

/** A data key's blob opens only with its own context. */
async function checkDataKeys(t: ExecutionContext, alice: ApiSession, ttag: string): Promise<void> {
  const client = specClientKey();
  const made = await alice.post('/api/crypto/datakey', { ttag, clientPubKey: client.publicKey, context: ACME });
  t.is(made.status, 200, made.text);
  const dataKey = specUnwrap(made.body.wrapped, client.ecdh, 'keygate datakey v1');
  const open = (context?: object) =>
    alice.post('/api/crypto/datakey/open', {
      ttag,
      blob: made.body.blob,
      clientPubKey: specClientKey().publicKey,
      ...(context === undefined ? {} : { context }),
    });
  const again = specClientKey();
  const reopened = await alice.post('/api/crypto/datakey/open', {
    ttag,
    blob: made.body.blob,
    clientPubKey: again.publicKey,
    context: ACME_REORDERED,
  });
  t.is(reopened.status, 200, reopened.text);
  t.deepEqual(specUnwrap(reopened.body.wrapped, again.ecdh, 'keygate datakey v1'), dataKey);
  t.deepEqual(await outcome(open()), [400, 'DECRYPT_FAILED'], 'a blob with a context, opened without');
  t.deepEqual(await outcome(open(OTHER)), [400, 'DECRYPT_FAILED'], 'another context');
  const bare = await alice.post('/api/crypto/datakey', { ttag });
  t.is(
    (await alice.post('/api/crypto/datakey/open', { ttag, blob: bare.body.blob, clientPubKey: client.publicKey, context: {} })).status,
    200,
    'a blob made without opens with {}',
  );
  t.deepEqual(
    await outcome(alice.post('/api/crypto/datakey/open', { ttag, blob: bare.body.blob, clientPubKey: client.publicKey, context: ACME })),
    [400, 'DECRYPT_FAILED'],
    'a blob made without, opened with one',
  );
  t.deepEqual(specOpenBlob(bytes(made.body.blob), await exportVersion(alice, ttag, made.body.version), ACME), dataKey, 'by hand');
}

for (const store of KEY_SERVER_STORES) {
  testUnless(storeSkipReason(store))(
    `${store}: a context binds encrypt, decrypt, rewrap and data keys: the same one opens, another, none or a part of it does not`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice);
      await checkCiphertexts(t, alice, ttag);
      await checkDataKeys(t, alice, (await createKey(alice)).ttag);
    },
  );
}

test('an encrypt answer opens with Node crypto under the exported key and additional data built from §4.5b item 2', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice, { keyLen: 16 });
  const context = { 'zone/a': 'ü€\u{1F511}', Tenant: 'acme', a: '', 'b.c=d+e@f:g-h_i': 'x'.repeat(256) };
  const key = await exportVersion(alice, ttag, 1);

  const made = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('by hand'), aad: b64('extra'), context })).body;
  const bare = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('before contexts'), aad: b64('extra') })).body;

  t.is(specDecrypt(key, made, Buffer.concat([specCanonical(context), Buffer.from('extra')])).toString(), 'by hand');
  t.throws(() => specDecrypt(key, made, Buffer.from('extra')), undefined, 'the context is in the additional data');
  t.is(specDecrypt(key, bare, Buffer.from('extra')).toString(), 'before contexts', 'no context: the additional data is aad alone');
});

test('a bad context is 400 BAD_REQUEST naming it or its member, single and batch, on every route, never 500', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const sealed = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') })).body.sealed as string;
  const blob = (await alice.post('/api/crypto/datakey', { ttag })).body.blob as string;
  const clientPubKey = specClientKey().publicKey;
  const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`n${i}`, 'v']));
  const bad: [string, unknown, string][] = [
    ['17 members', seventeen, 'context'],
    ['a name with a space', { 'a b': 'x' }, 'context'],
    ['an empty name', { '': 'x' }, 'context'],
    ['a 129-character name', { ['n'.repeat(129)]: 'x' }, 'context'],
    ['a number value', { tenant: 7 }, 'context.tenant'],
    ['a nested object', { tenant: { a: 'b' } }, 'context.tenant'],
    ['a 257-character value', { tenant: 'x'.repeat(257) }, 'context.tenant'],
    ['an array', ['a'], 'context'],
    ['a string', 'tenant=acme', 'context'],
    ['null', null, 'context'],
    ...HOSTILE.filter((h) => h.forbidden !== 'never').map((h): [string, unknown, string] => [
      `${h.what} as a value`,
      { tenant: h.value },
      'context.tenant',
    ]),
    ...HOSTILE.map((h): [string, unknown, string] => [`${h.what} as a name`, { [h.value]: 'x' }, 'context']),
  ];
  const bodies: [string, object][] = [
    ['/api/crypto/encrypt', { ttag, plaintext: b64('x') }],
    ['/api/crypto/decrypt', { ttag, sealed }],
    ['/api/crypto/rewrap', { ttag, sealed }],
    ['/api/crypto/datakey', { ttag }],
    ['/api/crypto/datakey/open', { ttag, blob, clientPubKey }],
  ];
  for (const [what, context, field] of bad) {
    for (const [path, body] of bodies) {
      const reply = await alice.post(path, { ...body, context });
      t.deepEqual([reply.status, reply.body.code], [400, 'BAD_REQUEST'], `${path}: ${what}`);
      t.true(String(reply.body.detail).startsWith(`${field}: `), `${path}: ${what}: ${reply.body.detail}`);
      t.true(String(reply.body.detail).length < 200, `${path}: ${what}: the detail repeats no long input`);
    }
    for (const [path, body] of bodies.slice(0, 3)) {
      const reply = await alice.post(path, { items: [body, { ...body, context }] });
      t.deepEqual([reply.status, reply.body.code], [400, 'BAD_REQUEST'], `${path} batch: ${what}`);
      t.true(String(reply.body.detail).startsWith(`items.1.${field}: `), `${path} batch: ${what}: ${reply.body.detail}`);
    }
  }
  // The values the text rule allows are values like any other: bound, and needed again.
  for (const { what, value } of HOSTILE.filter((h) => h.forbidden === 'never' && h.value.length <= 256)) {
    const made = await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('ok'), context: { tenant: value } });
    t.is(made.status, 200, what);
    t.is((await alice.post('/api/crypto/decrypt', { ttag, sealed: made.body.sealed, context: { tenant: value } })).status, 200, what);
  }
});

test('a member named __proto__ is bound like any other member', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const raw = (body: string) => alice.post('/api/crypto/encrypt', JSON.parse(body));
  const made = await raw(`{"ttag":${JSON.stringify(ttag)},"plaintext":"${b64('p')}","context":{"__proto__":"acme"}}`);
  t.is(made.status, 200, made.text);
  t.deepEqual(
    await outcome(alice.post('/api/crypto/decrypt', { ttag, sealed: made.body.sealed })),
    [400, 'DECRYPT_FAILED'],
    'the member was not dropped',
  );
  const opened = await alice.post(
    '/api/crypto/decrypt',
    JSON.parse(`{"ttag":${JSON.stringify(ttag)},"sealed":"${made.body.sealed}","context":{"__proto__":"acme"}}`),
  );
  t.like(opened, { status: 200, body: { plaintext: b64('p') } });
});

test('through a keygate keyserver daemon over mutual TLS: the context binds, and the daemon refuses a bad one from any caller', async (t) => {
  const keyServer = await seededDaemonKeyServer(t);
  const gw = await startGateway(t, {}, { keyServer });
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  await checkCiphertexts(t, alice, ttag);
  await checkDataKeys(t, alice, (await createKey(alice)).ttag);

  const connection = await keyServer.connect((await keyServer.login('alice', new Secret(PASSWORDS.alice))).token);
  t.teardown(() => connection.close());
  for (const [what, context] of [
    ['a name with a space', { 'a b': 'x' }],
    ['a number value', { tenant: 7 }],
    ['17 members', Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`n${i}`, 'v']))],
  ] as const) {
    const refused = await t.throwsAsync(
      connection.call('encrypt', { ttag, request: { plaintext: Buffer.from('x'), context: context as never } }),
      undefined,
      what,
    );
    t.is((refused as { code?: string } | undefined)?.code, 'BAD_REQUEST', `${what}: ${refused?.message}`);
    t.regex(refused?.message ?? '', /args\.request\.context/, what);
  }
  const items = await connection.call('cryptoBatch', {
    operation: 'encrypt',
    items: [
      { ttag, plaintext: Buffer.from('x'), context: { 'a b': 'x' } },
      { ttag, plaintext: Buffer.from('x'), context: ACME },
    ],
  });
  t.like(items, [{ ok: false, code: 'BAD_REQUEST' }, { ok: true }], 'a batch item with a bad context fails alone');
  const dataKey = await t.throwsAsync(connection.call('generateDataKey', { ttag, keyLen: 32, context: { tenant: 7 } as never }));
  t.is((dataKey as { code?: string } | undefined)?.code, 'BAD_REQUEST');
  t.regex(dataKey?.message ?? '', /args\.context\.tenant/);
});
