import { createECDH, type ECDH } from 'node:crypto';
import test from 'ava';
import type { ClientWrappedKey } from '../../src/crypto/client-wrap.js';
import { DATAKEY_WRAP_INFO, unwrapWith, type WrappedKey } from '../../src/crypto/p256-wrap.js';
import type { XWingWrappedKey } from '../../src/crypto/xwing-suite.js';
import { Secret } from '../../src/domain/secret/secret.js';
import type { KeyServerConnection } from '../../src/ports/key-server.port.js';
import { specXWingKey, specXWingUnwrap } from '../_support/spec-xwing.js';
import type { KeyServerFactory, KeyServerUnderTest } from './key-server-under-test.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? 'NO_CODE';
  }
}

async function signIn(ks: KeyServerUnderTest, name: string): Promise<KeyServerConnection> {
  return await ks.keyServer.connect((await ks.keyServer.login(name, new Secret(`${name}-pw`))).token);
}

const HELLO = Buffer.from('hello');

/** A client's ephemeral P-256 key and its raw point (docs/spec.md §3.1). */
function clientKey(): { ecdh: ECDH; point: Buffer } {
  const ecdh = createECDH('prime256v1');
  return { ecdh, point: ecdh.generateKeys() };
}

/** A wrap to a P-256 point (docs/spec.md §3.2), or the test fails. */
function p256(wrapped: ClientWrappedKey | undefined): WrappedKey {
  if (wrapped === undefined || !('gatewayPubKey' in wrapped)) throw new Error('expected a P-256 wrap');
  return wrapped;
}

/** A wrap with HPKE to an X-Wing key (docs/spec.md §3.4), or the test fails. */
function hpke(wrapped: ClientWrappedKey | undefined): XWingWrappedKey {
  if (wrapped === undefined || !('enc' in wrapped)) throw new Error('expected an X-Wing wrap');
  return wrapped;
}

/** Key versions through the KeyServer port (rotate, min-version, crypto by version, rewrap, batches), run against one adapter. */
export function keyVersionsContract(name: string, make: KeyServerFactory): void {
  const title = (behaviour: string) => `${name} key server: ${behaviour}`;

  test(
    title('rotates a key: encrypt and MAC use the newest version, decrypt and verify the one named (1 when none), export the newest'),
    async (t) => {
      const ks = await make();
      t.teardown(() => ks.close());
      const alice = await signIn(ks, 'alice');
      const { ttag } = await alice.call('generateKey', { keyLen: 32 });
      t.like(await alice.call('readKey', { ttag }), { version: 1, minVersion: 1, versions: [{ version: 1, state: 'active' }] });
      const before = await alice.call('encrypt', { ttag, request: { plaintext: HELLO } });
      t.is(before.version, 1);
      const firstMac = await alice.call('mac', { ttag, data: HELLO });
      const first = await alice.call('exportKey', { ttag });
      t.is(first.version, 1);

      const rotated = await alice.call('rotateKey', { ttag });
      t.is(rotated.version, 2);
      t.deepEqual(
        rotated.versions.map((v) => [v.version, v.state]),
        [
          [1, 'active'],
          [2, 'active'],
        ],
      );
      t.is(rotated.keyLen, 32);
      const after = await alice.call('encrypt', { ttag, request: { plaintext: HELLO } });
      t.is(after.version, 2);
      const { ciphertext, iv, authTag } = before;
      t.deepEqual(
        await alice.call('decrypt', { ttag, request: { ciphertext, iv, authTag } }),
        { plaintext: HELLO },
        'a ciphertext made before the rotation opens without a version',
      );
      t.deepEqual(
        await alice.call('decrypt', { ttag, request: { ciphertext: after.ciphertext, iv: after.iv, authTag: after.authTag, version: 2 } }),
        {
          plaintext: HELLO,
        },
      );
      t.is(
        await codeOf(alice.call('decrypt', { ttag, request: { ciphertext: after.ciphertext, iv: after.iv, authTag: after.authTag } })),
        'DECRYPT_FAILED',
      );
      const mac = await alice.call('mac', { ttag, data: HELLO });
      t.is(mac.version, 2);
      t.deepEqual(await alice.call('verifyMac', { ttag, request: { data: HELLO, mac: firstMac.mac } }), { valid: true });
      t.deepEqual(await alice.call('verifyMac', { ttag, request: { data: HELLO, mac: mac.mac, version: 2 } }), { valid: true });
      t.deepEqual(await alice.call('verifyMac', { ttag, request: { data: HELLO, mac: mac.mac } }), { valid: false });

      const newest = await alice.call('exportKey', { ttag });
      t.is(newest.version, 2);
      t.is(newest.key.length, 32);
      t.false(Buffer.from(newest.key).equals(first.key));
      t.true(Buffer.from((await alice.call('exportKey', { ttag, version: 1 })).key).equals(first.key));
      for (const version of [0, -1, 3]) {
        t.is(await codeOf(alice.call('exportKey', { ttag, version })), 'KEY_VERSION_NOT_FOUND', `export version ${version}`);
        t.is(
          await codeOf(alice.call('decrypt', { ttag, request: { ciphertext, iv, authTag, version } })),
          'KEY_VERSION_NOT_FOUND',
          `decrypt version ${version}`,
        );
      }
    },
  );

  test(title('rotation takes the owner or the right rotate; an expired key does not rotate'), async (t) => {
    const ks = await make();
    t.teardown(() => ks.close());
    const alice = await signIn(ks, 'alice');
    const bob = await signIn(ks, 'bob');
    const { ttag } = await alice.call('generateKey', { keyLen: 16 });
    await alice.call('grant', { ttag, principal: 'bob', rights: ['read', 'encrypt'] });
    t.is(await codeOf(bob.call('rotateKey', { ttag })), 'ACL_DENIED');
    await alice.call('grant', { ttag, principal: 'bob', rights: ['read', 'rotate'] });
    t.is((await bob.call('rotateKey', { ttag })).version, 2);
    t.is(await codeOf(bob.call('setMinVersion', { ttag, minVersion: 2 })), 'ACL_DENIED', 'the minimum version is the owner’s');
    await alice.call('expireKey', { ttag });
    t.is(await codeOf(alice.call('rotateKey', { ttag })), 'KEY_EXPIRED');
  });

  test(title('a minimum version retires the versions below it for export, decrypt and verify, and never goes down'), async (t) => {
    const ks = await make();
    t.teardown(() => ks.close());
    const alice = await signIn(ks, 'alice');
    const { ttag } = await alice.call('generateKey', { keyLen: 24 });
    const old = await alice.call('encrypt', { ttag, request: { plaintext: HELLO } });
    const oldMac = await alice.call('mac', { ttag, data: HELLO });
    await alice.call('rotateKey', { ttag });
    t.is(await codeOf(alice.call('setMinVersion', { ttag, minVersion: 3 })), 'BAD_REQUEST', 'above the newest version');
    const view = await alice.call('setMinVersion', { ttag, minVersion: 2 });
    t.like(view, { version: 2, minVersion: 2 });
    t.deepEqual(
      view.versions.map((v) => v.state),
      ['retired', 'active'],
    );
    t.like(await alice.call('readKey', { ttag }), { minVersion: 2 });
    t.is(await codeOf(alice.call('exportKey', { ttag, version: 1 })), 'KEY_VERSION_RETIRED');
    t.is(
      await codeOf(alice.call('decrypt', { ttag, request: { ciphertext: old.ciphertext, iv: old.iv, authTag: old.authTag } })),
      'KEY_VERSION_RETIRED',
    );
    t.is(await codeOf(alice.call('verifyMac', { ttag, request: { data: HELLO, mac: oldMac.mac, version: 1 } })), 'KEY_VERSION_RETIRED');
    t.is(
      await codeOf(alice.call('rewrap', { ttag, request: { ciphertext: old.ciphertext, iv: old.iv, authTag: old.authTag } })),
      'KEY_VERSION_RETIRED',
    );
    t.is((await alice.call('exportKey', { ttag })).version, 2);
    t.is((await alice.call('encrypt', { ttag, request: { plaintext: HELLO } })).version, 2);
    t.is(await codeOf(alice.call('setMinVersion', { ttag, minVersion: 1 })), 'CONFLICT');
    t.like(await alice.call('setMinVersion', { ttag, minVersion: 2 }), { minVersion: 2 }, 'the same minimum again changes nothing');
  });

  test(title('rewrap turns an old version’s ciphertext into one of the newest, and takes both decrypt and encrypt'), async (t) => {
    const ks = await make();
    t.teardown(() => ks.close());
    const alice = await signIn(ks, 'alice');
    const bob = await signIn(ks, 'bob');
    const { ttag } = await alice.call('generateKey', { keyLen: 16 });
    const aad = Buffer.from('context');
    const old = await alice.call('encrypt', { ttag, request: { plaintext: HELLO, aad } });
    await alice.call('rotateKey', { ttag });
    const request = { ciphertext: old.ciphertext, iv: old.iv, authTag: old.authTag, aad };
    const rewrapped = await alice.call('rewrap', { ttag, request });
    t.is(rewrapped.version, 2);
    t.deepEqual(
      await alice.call('decrypt', {
        ttag,
        request: { ciphertext: rewrapped.ciphertext, iv: rewrapped.iv, authTag: rewrapped.authTag, aad, version: 2 },
      }),
      {
        plaintext: HELLO,
      },
    );
    t.false('plaintext' in rewrapped);
    await alice.call('grant', { ttag, principal: 'bob', rights: ['decrypt'] });
    t.is(await codeOf(bob.call('rewrap', { ttag, request })), 'ACL_DENIED');
    await alice.call('grant', { ttag, principal: 'bob', rights: ['encrypt'] });
    t.is(await codeOf(bob.call('rewrap', { ttag, request })), 'ACL_DENIED');
    await alice.call('grant', { ttag, principal: 'bob', rights: ['decrypt', 'encrypt'] });
    t.is((await bob.call('rewrap', { ttag, request })).version, 2);
    t.is(await codeOf(alice.call('rewrap', { ttag, request: { ...request, aad: undefined } })), 'DECRYPT_FAILED');
  });

  test(title('a batch answers one outcome per item, in order; one item’s failure fails only that item'), async (t) => {
    const ks = await make();
    t.teardown(() => ks.close());
    const alice = await signIn(ks, 'alice');
    const { ttag } = await alice.call('generateKey', { keyLen: 32 });
    const { ttag: other } = await (await signIn(ks, 'bob')).call('generateKey', { keyLen: 16 });
    const unknown = Buffer.alloc(24, 9).toString('base64');
    const sealed = await alice.call('cryptoBatch', {
      operation: 'encrypt',
      items: [
        { ttag, plaintext: HELLO },
        { ttag: unknown, plaintext: HELLO },
        { ttag: other, plaintext: HELLO },
        { ttag, data: HELLO },
        { ttag, plaintext: Buffer.from('second') },
      ],
    });
    t.deepEqual(
      sealed.map((outcome) => (outcome.ok ? 'ok' : outcome.code)),
      ['ok', 'NOT_FOUND', 'ACL_DENIED', 'BAD_REQUEST', 'ok'],
    );
    const results = sealed.flatMap((outcome) =>
      outcome.ok ? [outcome.result as { ciphertext: Uint8Array; iv: Uint8Array; authTag: Uint8Array; version: number }] : [],
    );
    t.true(results.every((result) => result.version === 1));
    const opened = await alice.call('cryptoBatch', {
      operation: 'decrypt',
      items: results.map((result) => ({
        ttag,
        ciphertext: result.ciphertext,
        iv: result.iv,
        authTag: result.authTag,
        version: result.version,
      })),
    });
    t.deepEqual(opened, [
      { ok: true, result: { plaintext: HELLO } },
      { ok: true, result: { plaintext: Buffer.from('second') } },
    ]);
    await alice.call('rotateKey', { ttag });
    const rewrapped = await alice.call('cryptoBatch', {
      operation: 'rewrap',
      items: results.map((result) => ({ ttag, ciphertext: result.ciphertext, iv: result.iv, authTag: result.authTag })),
    });
    t.true(rewrapped.every((outcome) => outcome.ok && (outcome.result as { version: number }).version === 2));
    const macs = await alice.call('cryptoBatch', { operation: 'mac', items: [{ ttag, data: HELLO }] });
    const mac = (macs[0] as { ok: true; result: { mac: Uint8Array; version: number } }).result;
    t.is(mac.version, 2);
    t.deepEqual(
      await alice.call('cryptoBatch', {
        operation: 'verify',
        items: [
          { ttag, data: HELLO, mac: mac.mac, version: 2 },
          { ttag, data: HELLO, mac: mac.mac, version: 7 },
        ],
      }),
      [
        { ok: true, result: { valid: true } },
        { ok: false, code: 'KEY_VERSION_NOT_FOUND', message: 'the key has no version 7 (versions 1 to 2)' },
      ],
    );
    const tooMany = Array.from({ length: 1001 }, () => ({ ttag, plaintext: HELLO }));
    t.is(await codeOf(alice.call('cryptoBatch', { operation: 'encrypt', items: tooMany })), 'BAD_REQUEST');
  });

  test(title('a batch item without what its operation needs is refused as it enters, before its key is looked up'), async (t) => {
    const ks = await make();
    t.teardown(() => ks.close());
    const alice = await signIn(ks, 'alice');
    const { ttag } = await alice.call('generateKey', { keyLen: 16 });
    const { ttag: bobs } = await (await signIn(ks, 'bob')).call('generateKey', { keyLen: 16 });
    const unknown = Buffer.alloc(24, 9).toString('base64');
    const outcomes = await alice.call('cryptoBatch', {
      operation: 'decrypt',
      items: [
        { ttag: bobs, data: HELLO },
        { ttag: unknown, data: HELLO },
        { ttag: bobs, plaintext: HELLO },
        { ttag, data: HELLO, mac: HELLO },
      ],
    });
    t.deepEqual(
      outcomes.map((outcome) => (outcome.ok ? 'ok' : `${outcome.code} ${outcome.message}`)),
      Array(4).fill('BAD_REQUEST ciphertext: required'),
      'not ACL_DENIED or NOT_FOUND: the key of a malformed item is never read',
    );
  });

  test(
    title(
      'makes a data key under the newest version, wrapped to a client key, and opens its blob again; refuses another key, a retired version and a missing right',
    ),
    async (t) => {
      const ks = await make();
      t.teardown(() => ks.close());
      const alice = await signIn(ks, 'alice');
      const bob = await signIn(ks, 'bob');
      const { ttag } = await alice.call('generateKey', { keyLen: 16 });
      const other = (await alice.call('generateKey', { keyLen: 16 })).ttag;
      await alice.call('rotateKey', { ttag });
      const first = clientKey();
      const made = await alice.call('generateDataKey', { ttag, keyLen: 24, clientPubKey: first.point });
      t.deepEqual([made.keyLen, made.version, made.blob.length], [24, 2, 6 + 12 + 24 + 16]);
      const dataKey = unwrapWith(p256(made.wrapped), first.ecdh.getPrivateKey(), DATAKEY_WRAP_INFO);
      t.is(dataKey.length, 24);
      const bare = await alice.call('generateDataKey', { ttag, keyLen: 32 });
      t.deepEqual(Object.keys(bare).sort(), ['blob', 'keyLen', 'version']);

      const second = clientKey();
      const opened = await alice.call('openDataKey', { ttag, blob: made.blob, clientPubKey: second.point });
      t.deepEqual([opened.keyLen, opened.version], [24, 2]);
      t.deepEqual(unwrapWith(p256(opened.wrapped), second.ecdh.getPrivateKey(), DATAKEY_WRAP_INFO), dataKey);
      const xwing = specXWingKey();
      const xwingKey = Buffer.from(xwing.publicKey, 'base64');
      const toXWing = await alice.call('openDataKey', { ttag, blob: made.blob, clientPubKey: xwingKey });
      t.deepEqual(specXWingUnwrap(hpke(toXWing.wrapped), xwing.secretKey, 'keygate datakey v2'), dataKey, 'to an X-Wing key (§3.4)');
      const madeToXWing = await alice.call('generateDataKey', { ttag, keyLen: 16, clientPubKey: xwingKey });
      t.is(specXWingUnwrap(hpke(madeToXWing.wrapped), xwing.secretKey, 'keygate datakey v2').length, 16);
      for (const refused of [Buffer.alloc(1216, 0xff), Buffer.concat([xwingKey, Buffer.from([0])])]) {
        t.is(
          await codeOf(alice.call('openDataKey', { ttag, blob: made.blob, clientPubKey: refused })),
          'BAD_REQUEST',
          `${refused.length} bytes`,
        );
      }

      const old = await alice.call('generateDataKey', { ttag: other, keyLen: 16 });
      t.is(await codeOf(alice.call('openDataKey', { ttag, blob: old.blob, clientPubKey: second.point })), 'DECRYPT_FAILED', 'another key');
      t.is(await codeOf(alice.call('openDataKey', { ttag, blob: made.blob, clientPubKey: Buffer.alloc(65, 4) })), 'BAD_REQUEST');
      t.is(await codeOf(bob.call('generateDataKey', { ttag, keyLen: 16 })), 'ACL_DENIED');
      t.is(await codeOf(bob.call('openDataKey', { ttag, blob: made.blob, clientPubKey: second.point })), 'ACL_DENIED');
      await alice.call('rotateKey', { ttag: other });
      await alice.call('setMinVersion', { ttag: other, minVersion: 2 });
      t.is(await codeOf(alice.call('openDataKey', { ttag: other, blob: old.blob, clientPubKey: second.point })), 'KEY_VERSION_RETIRED');
    },
  );
}
