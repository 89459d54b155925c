import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';

test('a rotation past the configured most versions per key is 409 KEY_VERSIONS_EXHAUSTED and adds nothing', async (t) => {
  const gw = await startGateway(t, { keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin, maxKeyVersions: 2 } });
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice);
  t.like(await alice.post(`/api/keys/${pathTtag(key.ttag)}/rotate`), { status: 200, body: { version: 2 } });
  const refused = await alice.post(`/api/keys/${pathTtag(key.ttag)}/rotate`);
  t.like(refused, { status: 409, body: { code: 'KEY_VERSIONS_EXHAUSTED' } });
  t.like((await alice.get(`/api/keys/${pathTtag(key.ttag)}`)).body, { version: 2 });
});
