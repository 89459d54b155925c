import test from 'ava';
import type { ProofKeyEntry } from '../../src/domain/proof/proof.js';
import { LruProofKeyCache } from '../../src/use-cases/proof-key-cache.js';

const key = (name: string) => ({ thumbprint: name }) as unknown as ProofKeyEntry;

test('keeps at most its bound, dropping the least recently used key', (t) => {
  const cache = new LruProofKeyCache(2);
  cache.set('a', key('a'));
  cache.set('b', key('b'));
  t.truthy(cache.get('a'));
  cache.set('c', key('c'));
  t.is(cache.size, 2);
  t.is(cache.get('b'), undefined);
  t.truthy(cache.get('a'));
  t.truthy(cache.get('c'));
});

test('refuses a bound that is not a positive integer', (t) => {
  t.throws(() => new LruProofKeyCache(0), { instanceOf: RangeError });
});
