import { createDecipheriv, hkdfSync } from 'node:crypto';
import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { startFaultyGateway, startGateway } from '../_support/gateway.js';
import { b64, specClientKey, specUnwrap } from '../_support/spec-unwrap.js';

/**
 * docs/spec.md §4.5a, checked by a client written from the spec alone with Node's crypto: ECDH P-256,
 * HKDF-SHA256 and AES-256-GCM for `wrapped` (§3.2 with info `keygate datakey v1`), and the blob's byte
 * layout opened with the key version fetched by export. Nothing of src/ opens either.
 */

/** docs/spec.md §4.5a item 5: format, version, keyLen, iv, ciphertext, tag; the header is the additional data. */
function openBlob(blob: Buffer, versionKey: Buffer): Buffer {
  const keyLen = blob[5]!;
  const sealKey = Buffer.from(hkdfSync('sha256', versionKey, Buffer.alloc(0), 'keygate datakey blob v1', 32));
  const decipher = createDecipheriv('aes-256-gcm', sealKey, blob.subarray(6, 18));
  decipher.setAAD(blob.subarray(0, 6));
  decipher.setAuthTag(blob.subarray(18 + keyLen));
  return Buffer.concat([decipher.update(blob.subarray(18, 18 + keyLen)), decipher.final()]);
}

/** The raw key of a version, by export (§3), unwrapped by the same independent client. */
async function exportVersion(session: ApiSession, ttag: string, version: number): Promise<Buffer> {
  const client = specClientKey();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey, version });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return specUnwrap(reply.body.wrapped, client.ecdh, 'keygate export v1');
}

test('a data key wrapped to the caller is the one its blob seals under the newest version, as an independent client reads both', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice, { keyLen: 24 });
  t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`)).status, 200);
  const client = specClientKey();

  const reply = await alice.post('/api/crypto/datakey', { ttag, clientPubKey: client.publicKey });

  t.is(reply.status, 200, reply.text);
  t.deepEqual(Object.keys(reply.body).sort(), ['blob', 'keyLen', 'version', 'wrapped']);
  t.is(reply.body.keyLen, 32);
  t.is(reply.body.version, 2);
  const dataKey = specUnwrap(reply.body.wrapped, client.ecdh, 'keygate datakey v1');
  t.is(dataKey.length, 32);
  const blob = b64(reply.body.blob);
  t.is(blob.length, 1 + 4 + 1 + 12 + 32 + 16);
  t.deepEqual([blob[0], blob.readUInt32BE(1), blob[5]], [1, 2, 32]);
  t.deepEqual(openBlob(blob, await exportVersion(alice, ttag, 2)), dataKey);
  t.throws(() => specUnwrap(reply.body.wrapped, client.ecdh, 'keygate export v1'), undefined, 'a wrapped data key is no wrapped export');
});

test('without clientPubKey the answer is the blob alone, and no log line or audit record holds the data key', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const admin = await signIn(gw, 'admin');
  const { ttag } = await createKey(alice);

  const made = await alice.post('/api/crypto/datakey', { ttag, keyLen: 16 });

  t.is(made.status, 200, made.text);
  t.deepEqual(made.body, { blob: made.body.blob, keyLen: 16, version: 1 });
  t.is(b64(made.body.blob).length, 1 + 4 + 1 + 12 + 16 + 16);
  const client = specClientKey();
  const opened = await alice.post('/api/crypto/datakey/open', { ttag, blob: made.body.blob, clientPubKey: client.publicKey });
  t.is(opened.status, 200, opened.text);
  const dataKey = specUnwrap(opened.body.wrapped, client.ecdh, 'keygate datakey v1');
  t.deepEqual(openBlob(b64(made.body.blob), await exportVersion(alice, ttag, 1)), dataKey);
  const audit = await admin.get('/api/audit?limit=500');
  t.is(audit.status, 200);
  const written = JSON.stringify(gw.logger.lines) + audit.text;
  for (const form of [dataKey.toString('hex'), dataKey.toString('base64'), dataKey.toString('base64url'), made.body.blob]) {
    t.false(written.includes(form), 'no form of the data key or its blob is logged or audited');
  }
});

test('a blob opens again to a second client key with the same data key, each wrap fresh', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const first = specClientKey();
  const made = await alice.post('/api/crypto/datakey', { ttag, clientPubKey: first.publicKey });
  const second = specClientKey();

  const opened = await alice.post('/api/crypto/datakey/open', { ttag, blob: made.body.blob, clientPubKey: second.publicKey });

  t.is(opened.status, 200, opened.text);
  t.deepEqual(Object.keys(opened.body).sort(), ['keyLen', 'version', 'wrapped']);
  t.deepEqual([opened.body.keyLen, opened.body.version], [32, 1]);
  t.deepEqual(
    specUnwrap(opened.body.wrapped, second.ecdh, 'keygate datakey v1'),
    specUnwrap(made.body.wrapped, first.ecdh, 'keygate datakey v1'),
  );
  t.not(opened.body.wrapped.gatewayPubKey, made.body.wrapped.gatewayPubKey);
});

test('a blob of another key, changed in a byte, of a retired or a missing version, or sent to decrypt is refused with the codes of decrypt', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const other = (await createKey(alice)).ttag;
  const blob = b64((await alice.post('/api/crypto/datakey', { ttag })).body.blob);
  const open = (key: string, bytes: Buffer) =>
    alice.post('/api/crypto/datakey/open', { ttag: key, blob: bytes.toString('base64'), clientPubKey: specClientKey().publicKey });
  const changed = (at: number, value?: number) => {
    const copy = Buffer.from(blob);
    copy[at] = value ?? copy[at]! ^ 1;
    return copy;
  };
  const outcome = async (reply: Promise<{ status: number; body: { code?: string } }>) => {
    const settled = await reply;
    return [settled.status, settled.body.code];
  };

  t.deepEqual(await outcome(open(other, blob)), [400, 'DECRYPT_FAILED'], 'another key');
  t.deepEqual(await outcome(open(ttag, changed(20))), [400, 'DECRYPT_FAILED'], 'a ciphertext byte');
  t.deepEqual(await outcome(open(ttag, changed(blob.length - 1))), [400, 'DECRYPT_FAILED'], 'a tag byte');
  t.deepEqual(await outcome(open(ttag, changed(0))), [400, 'DECRYPT_FAILED'], 'the format');
  t.deepEqual(await outcome(open(ttag, blob.subarray(0, blob.length - 1))), [400, 'DECRYPT_FAILED'], 'a short blob');
  t.deepEqual(await outcome(open(ttag, changed(4, 9))), [404, 'KEY_VERSION_NOT_FOUND'], 'a version the key lacks');
  const decrypt = await alice.post('/api/crypto/decrypt', {
    ttag,
    iv: blob.subarray(6, 18).toString('base64'),
    ciphertext: blob.subarray(18, 50).toString('base64'),
    authTag: blob.subarray(50).toString('base64'),
    aad: blob.subarray(0, 6).toString('base64'),
  });
  t.deepEqual([decrypt.status, decrypt.body.code], [400, 'DECRYPT_FAILED'], 'decrypt does not open a blob');
  t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`)).status, 200);
  t.deepEqual(await outcome(open(ttag, changed(4, 2))), [400, 'DECRYPT_FAILED'], 'a version that exists but did not seal it');
  t.is((await alice.put(`/api/keys/${pathTtag(ttag)}/min-version`, { minVersion: 2 })).status, 200);
  t.deepEqual(await outcome(open(ttag, blob)), [409, 'KEY_VERSION_RETIRED'], 'a retired version');
});

test('without the right or the role, and with a bad clientPubKey, neither route answers a data key', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const audra = await signIn(gw, 'audra');
  const { ttag } = await createKey(alice);
  const blob = (await alice.post('/api/crypto/datakey', { ttag })).body.blob as string;
  const clientPubKey = specClientKey().publicKey;
  const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64');
  const cases: [ApiSession, string, object, number, string][] = [
    [bob, '/api/crypto/datakey', { ttag, clientPubKey }, 403, 'ACL_DENIED'],
    [bob, '/api/crypto/datakey/open', { ttag, blob, clientPubKey }, 403, 'ACL_DENIED'],
    [audra, '/api/crypto/datakey', { ttag }, 403, 'ROLE_DENIED'],
    [audra, '/api/crypto/datakey/open', { ttag, blob, clientPubKey }, 403, 'ROLE_DENIED'],
    [alice, '/api/crypto/datakey', { ttag, clientPubKey: offCurve }, 400, 'BAD_REQUEST'],
    [alice, '/api/crypto/datakey/open', { ttag, blob, clientPubKey: Buffer.alloc(33, 2).toString('base64') }, 400, 'BAD_REQUEST'],
    [alice, '/api/crypto/datakey', { ttag, keyLen: 20 }, 400, 'BAD_REQUEST'],
    [alice, '/api/crypto/datakey', { ttag, context: { tenant: 7 } }, 400, 'BAD_REQUEST'],
    [alice, '/api/crypto/datakey/open', { ttag, blob }, 400, 'BAD_REQUEST'],
  ];
  for (const [session, path, body, status, code] of cases) {
    const reply = await session.post(path, body);
    t.deepEqual([reply.status, reply.body.code], [status, code], `${path} ${JSON.stringify(body)}`);
    t.false('wrapped' in reply.body || 'blob' in reply.body);
  }
});

test('the record names the operation, the key and the version; a refused record withholds the answer and asks the key server nothing', async (t) => {
  const audit = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startFaultyGateway(t, {}, { auditLog: audit });
  const alice = await signIn(gw, 'alice');
  const admin = await signIn(gw, 'admin');
  const { ttag } = await createKey(alice);
  await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`);
  const made = await alice.post('/api/crypto/datakey', { ttag, clientPubKey: specClientKey().publicKey });
  await alice.post('/api/crypto/datakey/open', { ttag, blob: made.body.blob, clientPubKey: specClientKey().publicKey });

  for (const operation of ['crypto.datakey', 'crypto.datakey.open']) {
    const records = await admin.get(`/api/audit?operation=${operation}`);
    t.is(records.status, 200, records.text);
    t.like(records.body.items, [{ operation, object: ttag, version: 2, outcome: 'ok', principal: 'alice' }]);
  }

  for (const fault of ['down', 'failComplete'] as const) {
    audit.faults[fault] = true;
    gw.keyServerCalls.length = 0;
    const refused = await alice.post('/api/crypto/datakey', { ttag, clientPubKey: specClientKey().publicKey });
    const reopened = await alice.post('/api/crypto/datakey/open', { ttag, blob: made.body.blob, clientPubKey: specClientKey().publicKey });
    audit.faults[fault] = false;
    for (const reply of [refused, reopened]) {
      t.deepEqual([reply.status, reply.body.code], [503, 'AUDIT_UNAVAILABLE'], fault);
      t.false('wrapped' in reply.body || 'blob' in reply.body);
    }
    if (fault === 'down') t.deepEqual(gw.keyServerCalls, [], 'a record not stored asks the key server nothing');
  }
});
