import { randomBytes } from 'node:crypto';
import test from 'ava';
import { Secret } from '../../src/domain/secret/secret.js';
import { openToken, SealedTokenError, sealingKeyId, sealingKeyring, sealToken } from '../../src/domain/session/seal-token.js';
import { SeededRandom } from '../_support/seeded-random.js';

const TOKEN = new Secret('ks-token-0123456789abcdef');
const AAD = 'Yk3m3mN0bF9vbmx5LWEtc3RvcmUta2V5LWZvci10ZXN0cw';
const keyA = randomBytes(32);
const keyB = randomBytes(32);

function rejects(t: import('ava').ExecutionContext, run: () => unknown, reason: SealedTokenError['reason']): void {
  const error = t.throws(run, { instanceOf: SealedTokenError });
  t.is(error?.reason, reason);
}

test('a sealed token opens to the same token and shows nothing of it', (t) => {
  const ring = sealingKeyring([keyA]);
  const sealed = sealToken(TOKEN, AAD, ring, new SeededRandom());
  t.false(sealed.includes(TOKEN.reveal()));
  t.false(sealed.includes(Buffer.from(TOKEN.reveal()).toString('base64url')));
  t.regex(sealed, /^kg1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  t.is(openToken(sealed, AAD, ring).reveal(), TOKEN.reveal());
});

test('each seal uses a fresh iv, so the same token never seals alike twice', (t) => {
  const ring = sealingKeyring([keyA]);
  const random = new SeededRandom();
  t.not(sealToken(TOKEN, AAD, ring, random), sealToken(TOKEN, AAD, ring, random));
});

test('the sealed token names its key by the key id', (t) => {
  const sealed = sealToken(TOKEN, AAD, sealingKeyring([keyA, keyB]), new SeededRandom());
  t.is(sealed.split('.')[1], sealingKeyId(keyA));
  t.not(sealingKeyId(keyA), sealingKeyId(keyB));
});

test('rotation: a new first key seals, and tokens sealed under the old key still open', (t) => {
  const before = sealToken(TOKEN, AAD, sealingKeyring([keyA]), new SeededRandom());
  const rotated = sealingKeyring([keyB, keyA]);
  t.is(openToken(before, AAD, rotated).reveal(), TOKEN.reveal());
  const after = sealToken(TOKEN, AAD, rotated, new SeededRandom());
  t.is(after.split('.')[1], sealingKeyId(keyB));
  rejects(t, () => openToken(after, AAD, sealingKeyring([keyA])), 'unknown-key');
});

test('a token sealed under a key since dropped is refused as an unknown key', (t) => {
  const sealed = sealToken(TOKEN, AAD, sealingKeyring([keyA]), new SeededRandom());
  rejects(t, () => openToken(sealed, AAD, sealingKeyring([keyB])), 'unknown-key');
});

test('a token moved to another session (another aad) is rejected', (t) => {
  const ring = sealingKeyring([keyA]);
  const sealed = sealToken(TOKEN, AAD, ring, new SeededRandom());
  rejects(t, () => openToken(sealed, `${AAD.slice(0, -1)}x`, ring), 'rejected');
  rejects(t, () => openToken(sealed, '', ring), 'rejected');
});

test('any tampered part is rejected', (t) => {
  const ring = sealingKeyring([keyA]);
  const sealed = sealToken(TOKEN, AAD, ring, new SeededRandom());
  const parts = sealed.split('.');
  for (const index of [2, 3, 4]) {
    const bytes = Buffer.from(parts[index]!, 'base64url');
    bytes[0] ^= 0x01;
    const tampered = parts.map((part, i) => (i === index ? bytes.toString('base64url') : part)).join('.');
    rejects(t, () => openToken(tampered, AAD, ring), 'rejected');
  }
  const shorter = Buffer.from(parts[3]!, 'base64url').subarray(1).toString('base64url');
  rejects(t, () => openToken([...parts.slice(0, 3), shorter, parts[4]].join('.'), AAD, ring), 'rejected');
});

test('a malformed sealed token is refused as malformed', (t) => {
  const ring = sealingKeyring([keyA]);
  const sealed = sealToken(TOKEN, AAD, ring, new SeededRandom());
  for (const bad of ['', TOKEN.reveal(), sealed.replace(/^kg1/, 'kg2'), sealed.split('.').slice(0, 4).join('.'), `${sealed}.x`]) {
    rejects(t, () => openToken(bad, AAD, ring), 'malformed');
  }
  const parts = sealed.split('.');
  rejects(t, () => openToken([...parts.slice(0, 2), 'AAAA', ...parts.slice(3)].join('.'), AAD, ring), 'malformed');
});

test('a keyring refuses no key, a key of the wrong length and a repeated key', (t) => {
  t.throws(() => sealingKeyring([]), { instanceOf: RangeError });
  t.throws(() => sealingKeyring([randomBytes(16)]), { instanceOf: RangeError, message: /key 1 is 16 bytes/ });
  t.throws(() => sealingKeyring([keyA, keyB, Buffer.from(keyA)]), { instanceOf: RangeError, message: /key 3 repeats/ });
});
