import test from 'ava';
import { signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';

/** A trusted issuer's settings as an administrator writes them (docs/spec.md §4.24 item 1). */
const CI = {
  issuer: 'https://token.actions.githubusercontent.com',
  jwksUri: 'https://token.actions.githubusercontent.com/.well-known/jwks',
  audiences: ['https://keygate.example'],
  algorithms: ['RS256'],
  principal: 'gh-{repository_id}',
  createPrincipals: true,
  roles: ['service'],
  boundClaims: { repository_owner: 'octo-org', ref: ['refs/heads/main', 'refs/tags/v*'] },
  requireJti: true,
  maxTokenAge: 600,
};

test('PUT /api/trust/issuers/{name} stores an issuer with its defaults, GET lists and reads it, DELETE ends it', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const put = await admin.put('/api/trust/issuers/github', CI);
  t.is(put.status, 200, put.text);
  t.deepEqual(put.body, { name: 'github', ...CI, leeway: 30 });
  t.deepEqual((await admin.get('/api/trust/issuers/github')).body, put.body);
  const list = await admin.get('/api/trust/issuers');
  t.deepEqual(list.body, { items: [put.body], complete: true });
  const replaced = await admin.put('/api/trust/issuers/github', { ...CI, leeway: 0, requireJti: false });
  t.like(replaced.body, { leeway: 0, requireJti: false });
  t.is((await admin.del('/api/trust/issuers/github')).status, 204);
  t.like(await admin.get('/api/trust/issuers/github'), { status: 404, body: { code: 'NOT_FOUND' } });
  t.like(await admin.del('/api/trust/issuers/github'), { status: 404, body: { code: 'NOT_FOUND' } });
});

test('PUT /api/trust/issuers/{name} refuses none, HMAC, a private or symmetric key, admin, an unknown role and a bad template, naming the field', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['alg none', { algorithms: ['none'] }, /^algorithms\.0: /],
    ['HS256', { algorithms: ['ES256', 'HS256'] }, /^algorithms\.1: /],
    ['no key source', { jwksUri: undefined }, /^jwksUri: exactly one/],
    ['both key sources', { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }] } }, /^jwksUri: exactly one/],
    [
      'a private member',
      { jwksUri: undefined, jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA', d: 'AA' }] } },
      /^jwks\.keys\.0: d: a private member/,
    ],
    ['a symmetric key', { jwksUri: undefined, jwks: { keys: [{ kty: 'oct', k: 'AA' }] } }, /^jwks\.keys\.0: /],
    ['an http issuer', { issuer: 'http://issuer.example' }, /^issuer: not an absolute https URL/],
    ['a jwksUri not a URL', { jwksUri: 'file:///etc/passwd' }, /^jwksUri: /],
    ['admin', { roles: ['admin'] }, /^roles: admin is never given/],
    ['an unknown role', { roles: ['nobody'] }, /^roles: no role nobody/],
    ['a stray brace', { principal: 'ci-{repository' }, /^principal: not a template/],
    ['no audience', { audiences: [] }, /^audiences: /],
    ['a leeway of an hour', { leeway: 3600 }, /^leeway: /],
  ];
  for (const [what, change, detail] of cases) {
    const reply = await admin.put('/api/trust/issuers/ci', { ...CI, ...change });
    t.is(reply.status, 400, `${what}: ${reply.text}`);
    t.is(reply.body.code, 'BAD_REQUEST', what);
    t.regex(reply.body.detail, detail, what);
  }
  t.like(await admin.put('/api/trust/issuers/a%20b', CI), { status: 400, body: { code: 'BAD_REQUEST' } });
  t.deepEqual((await admin.get('/api/trust/issuers')).body.items, []);
});

test('two issuers may not share an iss, and only an administrator manages them', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  t.is((await admin.put('/api/trust/issuers/one', CI)).status, 200);
  const twin = await admin.put('/api/trust/issuers/two', CI);
  t.like(twin, { status: 400, body: { code: 'BAD_REQUEST' } });
  t.regex(twin.body.detail, /^issuer: another trusted issuer/);
  const alice = await signIn(gw, 'alice');
  t.like(await alice.get('/api/trust/issuers'), { status: 403, body: { code: 'ROLE_DENIED' } });
  t.like(await alice.put('/api/trust/issuers/mine', { ...CI, issuer: 'https://mine.example' }), {
    status: 403,
    body: { code: 'ROLE_DENIED' },
  });
});
