import { inspect } from 'node:util';
import test from 'ava';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { Secret } from '../../src/domain/secret/secret.js';
import { isWellFormedSessionId, newSessionId, sessionKey, sessionRef } from '../../src/domain/session/session-id.js';

test('a session id is 256 random bits in base64url', (t) => {
  const random = new CryptoRandom();
  const ids = new Set(Array.from({ length: 1000 }, () => newSessionId(random)));
  t.is(ids.size, 1000);
  for (const id of ids) {
    t.regex(id, /^[A-Za-z0-9_-]{43}$/);
    t.is(Buffer.from(id, 'base64url').length, 32);
  }
});

test('the store key is a hash of the id, and the reference a prefix of it', (t) => {
  const id = newSessionId(new CryptoRandom());
  t.not(sessionKey(id), id);
  t.false(sessionKey(id).includes(id));
  t.is(sessionKey(id), sessionKey(id));
  t.true(sessionKey(id).startsWith(sessionRef(id)));
  t.is(sessionRef(id).length, 12);
});

test('only the shape we mint is a well-formed session id', (t) => {
  t.true(isWellFormedSessionId('a'.repeat(43)));
  for (const bad of ['', 'a'.repeat(42), 'a'.repeat(44), `${'a'.repeat(42)}=`, `${'a'.repeat(42)}+`]) {
    t.false(isWellFormedSessionId(bad));
  }
});

test('a secret never shows its value when serialised, printed or inspected', (t) => {
  const secret = new Secret('hunter2-token');
  t.false(JSON.stringify({ secret }).includes('hunter2'));
  t.false(String(secret).includes('hunter2'));
  t.false(`${secret}`.includes('hunter2'));
  t.false(inspect({ secret }).includes('hunter2'));
  t.is(secret.reveal(), 'hunter2-token');
});

test('secrets compare by value', (t) => {
  t.true(new Secret('a').equals(new Secret('a')));
  t.true(new Secret('a').equals('a'));
  t.false(new Secret('a').equals('b'));
  t.false(new Secret('a').equals('aa'));
});
