import test from 'ava';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { createAuthority } from '../_support/certificates.js';
import { SeededRandom } from '../_support/seeded-random.js';

test('a stored certificate that no longer parses makes the lists incomplete, never shorter in silence', async (t) => {
  const store = new MemoryEngineStore();
  const engine = new KeyServerEngine({ store, now: () => Date.now(), random: new SeededRandom() });
  await engine.createPrincipal({ name: 'admin', kind: 'user', roles: ['admin'] });
  const token = (await engine.issueToken((await store.principalByName('admin'))!)).token;
  await engine.identity.addAuthority(token, (await createAuthority('good CA')).pem);
  await store.putCertificate({
    id: 'f'.repeat(64),
    pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
    role: 'authority',
    createdAt: 0,
  });
  for (const list of [await engine.certificates.authorities(token), await engine.certificates.list(token, { limit: 10 })]) {
    t.is(list.complete, false);
    t.is(list.reason, '1 stored certificate(s) could not be read');
    t.is(list.items.length, 1);
  }
});
