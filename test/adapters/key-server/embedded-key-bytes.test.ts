import { createECDH } from 'node:crypto';
import test from 'ava';
import { EmbeddedKeyServer } from '../../../src/adapters/key-server/embedded-key-server.js';
import { CryptoRandom } from '../../../src/adapters/random/crypto-random.js';
import { unwrapKey } from '../../../src/domain/keywrap/unwrap-key.js';
import { Secret } from '../../../src/domain/secret/secret.js';
import { KeyServerEngine } from '../../../src/keyserver/engine/engine.js';
import { MemoryEngineStore } from '../../../src/keyserver/store/memory-engine-store.js';
import type { CallResult, KeyServer, KeyServerConnection } from '../../../src/ports/key-server.port.js';
import { KeyUseCases } from '../../../src/use-cases/keys.js';

/**
 * The embedded key server and a key of alice's, with every key the engine exports recorded: the
 * array the engine made, and a copy of its bytes taken at once (the array itself is zeroed later).
 */
async function embeddedWithKey(t: { teardown(fn: () => unknown): void }) {
  const engine = new KeyServerEngine({
    store: new MemoryEngineStore(),
    now: () => Date.now(),
    random: new CryptoRandom(),
    tokenTtlMs: 60_000,
  });
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-password' });
  const exported: { made: Uint8Array; bytes: Buffer }[] = [];
  const exportKey = engine.keys.exportKey.bind(engine.keys);
  engine.keys.exportKey = async (token, ttag, version) => {
    const blob = await exportKey(token, ttag, version);
    exported.push({ made: blob.key, bytes: Buffer.from(blob.key) });
    return blob;
  };
  const keyServer = new EmbeddedKeyServer(engine, 'fingerprint');
  t.teardown(() => keyServer.close());
  const login = await keyServer.login('alice', new Secret('alice-password'));
  const connection = await keyServer.connect(login.token);
  const { ttag } = await connection.call('generateKey', { keyLen: 32 });
  await connection.close();
  return { keyServer, login, ttag, exported };
}

test.serial('the embedded connection hands over the bytes the engine exported, never encoding them as a string', async (t) => {
  const { keyServer, login, ttag, exported } = await embeddedWithKey(t);
  const connection = await keyServer.connect(login.token);
  t.teardown(() => connection.close());
  const encodings: string[] = [];
  const encode = Buffer.prototype.toString;
  Buffer.prototype.toString = function (this: Buffer, ...args: Parameters<Buffer['toString']>) {
    const text = encode.apply(this, args);
    if (exported.some((key) => key.bytes.equals(this))) encodings.push(String(args[0]));
    return text;
  };
  let blob: CallResult<'exportKey'>;
  try {
    blob = await connection.call('exportKey', { ttag });
  } finally {
    Buffer.prototype.toString = encode;
  }
  t.deepEqual(encodings, [], 'the key material never became a string on its way');
  t.true(blob.key instanceof Uint8Array);
  t.is(exported.length, 1);
  t.is(blob.key, exported[0]!.made, 'the very array the engine made: no copy left behind to zero');
  t.deepEqual(Buffer.from(blob.key), exported[0]!.bytes, 'not zeroed before its receiver used it');
});

test('the export use case zeroes the key bytes it received once it has wrapped them', async (t) => {
  const { keyServer, login, ttag, exported } = await embeddedWithKey(t);
  const received: Uint8Array[] = [];
  const observed: KeyServer = Object.assign(Object.create(keyServer) as KeyServer, {
    async connect(token: Secret) {
      const connection = await keyServer.connect(token);
      const call: KeyServerConnection['call'] = async (name, args) => {
        const answer = await connection.call(name, args);
        if (name === 'exportKey') received.push((answer as CallResult<'exportKey'>).key);
        return answer;
      };
      return { call, close: () => connection.close() };
    },
  });
  const keys = new KeyUseCases({ keyServer: observed, random: new CryptoRandom() });
  const client = createECDH('prime256v1');
  const clientPubKey = client.generateKeys('base64');
  const now = Date.now();
  const session = {
    ref: 'ref',
    identity: login.identity,
    token: login.token,
    kind: 'password' as const,
    createdAt: now,
    expiresAt: now + 60_000,
  };
  const answer = await keys.export({ session, key: 'session-key' }, ttag, clientPubKey, undefined, async () => undefined);
  t.is(received.length, 1);
  t.is(received[0], exported[0]!.made, 'the use case received the engine’s own array');
  t.true(
    received[0]!.every((byte) => byte === 0),
    'zeroed once wrapped',
  );
  if (!('gatewayPubKey' in answer.wrapped)) return t.fail('a P-256 point is wrapped as §3.2 says');
  t.deepEqual(unwrapKey(answer.wrapped, client.getPrivateKey()), exported[0]!.bytes, 'the wrap carries the key');
  t.like(answer, { keyLen: 32 });
});

test('the embedded connection answers batch and versioned results as bytes, and a rewrap of them opens', async (t) => {
  const { keyServer, login, ttag } = await embeddedWithKey(t);
  const connection = await keyServer.connect(login.token);
  t.teardown(() => connection.close());
  const plaintext = Buffer.from('batch plaintext');
  const [sealed] = await connection.call('cryptoBatch', { operation: 'encrypt', items: [{ ttag, plaintext }] });
  if (!sealed?.ok) return t.fail('the encrypt item failed');
  const result = sealed.result as { ciphertext: Uint8Array; iv: Uint8Array; authTag: Uint8Array; version: number };
  t.true(result.ciphertext instanceof Uint8Array && result.iv instanceof Uint8Array && result.authTag instanceof Uint8Array);
  await connection.call('rotateKey', { ttag });
  const rewrapped = await connection.call('rewrap', { ttag, request: result });
  t.is(rewrapped.version, 2);
  t.true(rewrapped.ciphertext instanceof Uint8Array);
  const [opened] = await connection.call('cryptoBatch', { operation: 'decrypt', items: [{ ttag, ...rewrapped }] });
  t.deepEqual(opened, { ok: true, result: { plaintext } });
  if (opened?.ok) t.true((opened.result as { plaintext: unknown }).plaintext instanceof Uint8Array);
  const mac = await connection.call('mac', { ttag, data: plaintext });
  t.true(mac.mac instanceof Uint8Array);
  t.deepEqual(await connection.call('verifyMac', { ttag, request: { data: plaintext, mac: mac.mac, version: mac.version } }), {
    valid: true,
  });
  const old = await connection.call('exportKey', { ttag, version: 1 });
  t.is(old.version, 1);
  t.true(old.key instanceof Uint8Array);
});
