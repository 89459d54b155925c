import test from 'ava';
import { errors, exportJWK, generateKeyPair, type JSONWebKeySet, jwtVerify, SignJWT } from 'jose';
import { LocalKeySets } from '../../src/keyserver/engine/workload-key-sets.js';

async function publishedKey(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  return { jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' }, privateKey };
}

/** The same content as a new object, as the daemon parses it from each sign-in. */
const copy = (keys: JSONWebKeySet): JSONWebKeySet => JSON.parse(JSON.stringify(keys));

test('a set sent again as a new object is the set made before; another content is another set', async (t) => {
  const sets = new LocalKeySets(4);
  const one = await publishedKey('one');
  const keys = { keys: [one.jwk] };
  const first = sets.of(keys);
  t.is(sets.of(copy(keys)), first);
  t.is(sets.of(keys), first);
  const rotated = { keys: [one.jwk, (await publishedKey('two')).jwk] };
  t.not(sets.of(rotated), first);
  t.is(sets.size, 2);
});

test('holds at most its bound of sets, the least recently used let go first', async (t) => {
  const sets = new LocalKeySets(2);
  const a = { keys: [(await publishedKey('a')).jwk] };
  const b = { keys: [(await publishedKey('b')).jwk] };
  const c = { keys: [(await publishedKey('c')).jwk] };
  const setA = sets.of(copy(a));
  const setB = sets.of(copy(b));
  t.is(sets.of(copy(a)), setA, 'used again: now the most recent');
  sets.of(copy(c));
  t.is(sets.size, 2);
  t.is(sets.of(copy(a)), setA);
  t.not(sets.of(copy(b)), setB, 'b was let go and is made anew');
});

test('a withdrawn key verifies nothing through the set that no longer holds it', async (t) => {
  const sets = new LocalKeySets(4);
  const old = await publishedKey('old');
  const next = await publishedKey('next');
  const token = await new SignJWT({ sub: 's' }).setProtectedHeader({ alg: 'ES256', kid: 'old' }).sign(old.privateKey);
  t.is((await jwtVerify(token, sets.of(copy({ keys: [old.jwk, next.jwk] })))).payload.sub, 's');
  await t.throwsAsync(jwtVerify(token, sets.of(copy({ keys: [next.jwk] }))), { instanceOf: errors.JWKSNoMatchingKey });
});

test('a value that is no key set is refused as jose refuses it, and not kept', (t) => {
  const sets = new LocalKeySets(4);
  t.throws(() => sets.of({ keys: 'none' } as unknown as JSONWebKeySet), { instanceOf: errors.JWKSInvalid });
  t.is(sets.size, 0);
});
