import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { type JWTPayload, SignJWT } from 'jose';
import type { GatewayConfigInput } from '../../src/app/config/config.js';
import { bearer, signIn } from '../_support/api-client.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { UNTHROTTLED } from '../_support/hostile-text.js';
import { buildProof, makeSigner, type ProofSigner, type ProofSpec } from '../_support/proof-builder.js';
import { startIssuer, type TestIssuer } from '../_support/workload-issuer.js';

const GITHUB = 'https://token.actions.githubusercontent.com';
const KUBERNETES = 'https://kubernetes.default.svc.cluster.local';
const AUDIENCE = 'https://keygate.example';

/** A gateway that fetches the test issuer's key set over plain http on 127.0.0.1, within 300 ms. */
async function setUp(t: ExecutionContext, settings: Record<string, unknown> = {}, config: GatewayConfigInput = UNTHROTTLED) {
  const gw = await startGateway(t, { jwksPlainHttpHosts: ['127.0.0.1'], jwksTimeoutMs: 300, ...config });
  const issuer = await startIssuer(t);
  const admin = await signIn(gw, 'admin');
  const put = await admin.put('/api/trust/issuers/github', {
    issuer: GITHUB,
    jwksUri: issuer.jwksUri,
    audiences: [AUDIENCE],
    algorithms: ['ES256', 'RS256'],
    principal: 'gh-{repository_id}',
    createPrincipals: true,
    roles: ['service'],
    boundClaims: { repository_owner: 'octo-org', ref: ['refs/heads/main', 'refs/tags/v*'] },
    requireJti: true,
    maxTokenAge: 600,
    ...settings,
  });
  t.is(put.status, 200, put.text);
  return { gw, issuer, admin };
}

/** A GitHub Actions OIDC token's claims, as GitHub issues them, at the gateway's time. */
function actionsClaims(gw: TestGateway, change: JWTPayload = {}): JWTPayload {
  const now = Math.floor(gw.clock.now() / 1000);
  return {
    iss: GITHUB,
    jti: randomUUID(),
    sub: 'repo:octo-org/app:ref:refs/heads/main',
    aud: AUDIENCE,
    ref: 'refs/heads/main',
    sha: 'd6e3b9c1c0c7bc1b9d1e0a4f5a7c2b8e9f001122',
    repository: 'octo-org/app',
    repository_owner: 'octo-org',
    repository_owner_id: '9919',
    repository_visibility: 'private',
    repository_id: '123456789',
    actor: 'octocat',
    actor_id: '583231',
    workflow: 'deploy',
    event_name: 'push',
    ref_type: 'branch',
    job_workflow_ref: 'octo-org/app/.github/workflows/deploy.yml@refs/heads/main',
    runner_environment: 'github-hosted',
    run_id: '6045218437',
    run_number: '42',
    run_attempt: '1',
    nbf: now - 5,
    iat: now - 5,
    exp: now + 300,
    ...change,
  };
}

function signInWith(gw: TestGateway, token: string, issuer?: string) {
  return gw.call('POST', '/api/session/jwt', { body: issuer === undefined ? { token } : { issuer, token } });
}

function refusedNaming(
  t: ExecutionContext,
  reply: { status: number; body: { code?: string; detail?: string }; text: string },
  what: string,
) {
  t.is(reply.status, 401, `${what}: ${reply.text}`);
  t.is(reply.body.code, 'WRONG_CREDENTIAL', what);
  t.true(reply.body.detail?.startsWith(`${what}: `), `${what}: ${reply.text}`);
}

test('a GitHub Actions token signs in as a service the issuer creates, no longer than the token, and the audit names issuer, subject and jti, never the token', async (t) => {
  const { gw, issuer, admin } = await setUp(t);
  const claims = actionsClaims(gw);
  const token = await issuer.sign(claims);
  const reply = await signInWith(gw, token);
  t.is(reply.status, 201, reply.text);
  t.like(reply.body, { user: 'gh-123456789', kind: 'jwt', bound: false });
  t.true(Date.parse(reply.body.expiresAt) <= (claims.exp as number) * 1000);
  t.like((await gw.call('GET', '/api/session', { headers: bearer(reply.body.sessionId) })).body, { user: 'gh-123456789', kind: 'jwt' });
  t.like((await admin.get('/api/principals/gh-123456789')).body, { kind: 'service', roles: ['service'] });
  const audit = await admin.get('/api/audit?operation=session.jwt');
  const record = audit.body.items.find((item: { outcome: string }) => item.outcome === 'ok');
  t.like(record, { principal: 'gh-123456789', object: `github ${claims.sub} ${claims.jti}` });
  t.false(audit.text.includes(token.split('.')[2]!));
  t.false(gw.logger.lines.some((line) => JSON.stringify(line).includes(token.split('.')[2]!)));
});

test('a Kubernetes service-account token signs in as the existing service its nested claims name', async (t) => {
  const { gw, issuer } = await setUp(t);
  const admin = await signIn(gw, 'admin');
  t.is(
    (
      await admin.put('/api/trust/issuers/cluster', {
        issuer: KUBERNETES,
        jwks: { keys: issuer.published() },
        audiences: ['keygate'],
        algorithms: ['ES256'],
        principal: '{kubernetes.io/serviceaccount/name}',
        boundClaims: { 'kubernetes.io/namespace': 'payments' },
      })
    ).status,
    200,
  );
  const now = Math.floor(gw.clock.now() / 1000);
  const claims = {
    iss: KUBERNETES,
    aud: ['keygate'],
    sub: 'system:serviceaccount:payments:svc',
    iat: now,
    nbf: now,
    exp: now + 3600,
    'kubernetes.io': {
      namespace: 'payments',
      pod: { name: 'payments-7d4b9c6f5-x2x9q', uid: '1b7c1c9e-2f39-4a55-9a0e-4b8f3c1d2e77' },
      serviceaccount: { name: 'svc', uid: '0f4d6c22-5b1a-4b8e-8d7e-6f2f1b3c9a10' },
    },
  };
  const reply = await signInWith(gw, await issuer.sign(claims));
  t.is(reply.status, 201, reply.text);
  t.like(reply.body, { user: 'svc', kind: 'jwt' });
  // The inline key set is the key server's own: the endpoint was never asked.
  t.is(issuer.fetches(), 0);
  const elsewhere = await signInWith(
    gw,
    await issuer.sign({ ...claims, 'kubernetes.io': { ...claims['kubernetes.io'], namespace: 'default' } }),
  );
  refusedNaming(t, elsewhere, 'bound claim kubernetes.io/namespace');
  const user = await signInWith(
    gw,
    await issuer.sign({ ...claims, 'kubernetes.io': { ...claims['kubernetes.io'], serviceaccount: { name: 'alice' } } }),
  );
  refusedNaming(t, user, 'principal');
  const admins = await signInWith(
    gw,
    await issuer.sign({ ...claims, 'kubernetes.io': { ...claims['kubernetes.io'], serviceaccount: { name: 'admin' } } }),
  );
  refusedNaming(t, admins, 'principal');
});

test('each bad token is refused 401 WRONG_CREDENTIAL naming what failed', async (t) => {
  const { gw, issuer } = await setUp(t);
  const now = Math.floor(gw.clock.now() / 1000);
  const payload = Buffer.from(JSON.stringify(actionsClaims(gw))).toString('base64url');
  const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
  // HS256 keyed with the issuer's published public key: the classic key-confusion forgery.
  const hmac = await new SignJWT(actionsClaims(gw))
    .setProtectedHeader({ alg: 'HS256', kid: issuer.current().kid })
    .sign(new TextEncoder().encode(JSON.stringify(issuer.current().jwk)));
  const [header, body] = (await issuer.sign(actionsClaims(gw))).split('.');
  const otherSignature = (await issuer.sign(actionsClaims(gw, { sub: 'repo:octo-org/other:ref:refs/heads/main' }))).split('.')[2];
  const cases: [string, string][] = [
    ['iss', await issuer.sign(actionsClaims(gw, { iss: 'https://evil.example' }))],
    ['aud', await issuer.sign(actionsClaims(gw, { aud: 'https://elsewhere.example' }))],
    ['exp', await issuer.sign(actionsClaims(gw, { iat: now - 400, nbf: now - 400, exp: now - 60 }))],
    ['exp', await issuer.sign(actionsClaims(gw, { exp: undefined }))],
    ['nbf', await issuer.sign(actionsClaims(gw, { nbf: now + 120 }))],
    ['maxTokenAge', await issuer.sign(actionsClaims(gw, { iat: now - 3600, nbf: now - 3600 }))],
    ['signature', `${header}.${body}.${otherSignature}`],
    ['signature', await issuer.sign(actionsClaims(gw), { key: await issuer.stranger(issuer.current().kid) })],
    ['kid', await issuer.sign(actionsClaims(gw), { key: await issuer.stranger('key-unknown') })],
    ['alg', none],
    ['alg', hmac],
    ['bound claim repository_owner', await issuer.sign(actionsClaims(gw, { repository_owner: 'evil-org' }))],
    ['bound claim ref', await issuer.sign(actionsClaims(gw, { ref: 'refs/heads/feature' }))],
    ['jti', await issuer.sign(actionsClaims(gw, { jti: undefined }))],
    ['cnf.jkt', await issuer.sign(actionsClaims(gw, { cnf: { jkt: 'x'.repeat(43) } }))],
    ['principal', await issuer.sign(actionsClaims(gw, { repository_id: 'a/b' }))],
    ['token', 'a.b.c'],
  ];
  for (const [what, token] of cases) refusedNaming(t, await signInWith(gw, token), what);
  refusedNaming(t, await signInWith(gw, await issuer.sign(actionsClaims(gw)), 'nobody'), 'iss');
  t.like(await signInWith(gw, await issuer.sign(actionsClaims(gw, { ref: 'refs/tags/v1.2.0' }))), { status: 201 });
});

test('a jti is used once: the replay is refused and its token never opens a session', async (t) => {
  const { gw, issuer } = await setUp(t);
  const token = await issuer.sign(actionsClaims(gw));
  t.is((await signInWith(gw, token)).status, 201);
  refusedNaming(t, await signInWith(gw, token), 'jti');
  t.is((await signInWith(gw, await issuer.sign(actionsClaims(gw)))).status, 201);
});

test('a kid the issuer adds is fetched and accepted; a kid it withdrew is refused once the cached set is renewed', async (t) => {
  const { gw, issuer } = await setUp(t);
  const old = issuer.current();
  t.is((await signInWith(gw, await issuer.sign(actionsClaims(gw)))).status, 201);
  t.is(issuer.fetches(), 1);
  await issuer.rotate();
  // An unknown kid within the cool-down does not fetch again.
  refusedNaming(t, await signInWith(gw, await issuer.sign(actionsClaims(gw))), 'kid');
  t.is(issuer.fetches(), 1);
  gw.clock.advance(31_000);
  t.is((await signInWith(gw, await issuer.sign(actionsClaims(gw)))).status, 201);
  t.is(issuer.fetches(), 2);
  await issuer.rotate(true);
  gw.clock.advance(601_000);
  refusedNaming(t, await signInWith(gw, await issuer.sign(actionsClaims(gw), { key: old })), 'kid');
  t.is(issuer.fetches(), 3);
});

test('a key set endpoint that hangs, answers 10 MB or redirects to a metadata address refuses the sign-in (jwks), never a 5xx, and health shows it', async (t) => {
  const { gw, issuer } = await setUp(t);
  const cases: [TestIssuer['mode'], RegExp][] = [
    ['hang', /^jwks: no answer within 300 ms/],
    ['huge', /^jwks: the answer is larger than/],
    ['redirect', /^jwks: answered 302 \(redirects are not followed\)/],
  ];
  for (const [mode, detail] of cases) {
    issuer.mode = mode;
    gw.clock.advance(31_000);
    const reply = await signInWith(gw, await issuer.sign(actionsClaims(gw)));
    t.is(reply.status, 401, `${mode}: ${reply.text}`);
    t.is(reply.body.code, 'WRONG_CREDENTIAL');
    t.regex(reply.body.detail, detail, mode);
  }
  const health = await gw.call('GET', '/api/health');
  t.is(health.status, 200);
  t.is(health.body.checks.jwks, 'unavailable');
  issuer.mode = 'serve';
  gw.clock.advance(31_000);
  t.is((await signInWith(gw, await issuer.sign(actionsClaims(gw)))).status, 201);
  t.is((await gw.call('GET', '/api/health')).body.checks.jwks, 'ok');
});

test('a key set at a metadata or loopback address, or over plain http from an unlisted host, is never fetched', async (t) => {
  const { gw, issuer, admin } = await setUp(t);
  const uris: [string, RegExp][] = [
    ['https://169.254.169.254/jwks', /^jwks: 169\.254\.169\.254 resolves to a refused address/],
    ['https://[fd00:ec2::254]/jwks', /^jwks: fd00:ec2::254 resolves to a refused address/],
    ['https://localhost:1/jwks', /^jwks: localhost resolves to a refused address/],
    // The metadata and loopback addresses written as IPv4-mapped IPv6, dotted or (as URLs normalise them) in hex.
    ['https://[::ffff:169.254.169.254]/jwks', /^jwks: ::ffff:a9fe:a9fe resolves to a refused address/],
    ['https://[::ffff:7f00:1]:1/jwks', /^jwks: ::ffff:7f00:1 resolves to a refused address/],
    ['https://2852039166/jwks', /^jwks: 169\.254\.169\.254 resolves to a refused address/],
    ['http://issuer.invalid/jwks', /^jwks: http: is not fetched from issuer\.invalid/],
  ];
  for (const [jwksUri, detail] of uris) {
    t.is(
      (await admin.put('/api/trust/issuers/github', { ...(await admin.get('/api/trust/issuers/github')).body, name: undefined, jwksUri }))
        .status,
      200,
    );
    const reply = await signInWith(gw, await issuer.sign(actionsClaims(gw)));
    t.is(reply.status, 401, reply.text);
    t.regex(reply.body.detail, detail, jwksUri);
  }
  t.is(issuer.fetches(), 0);
});

test('refused tokens of one issuer and subject are throttled like password logins; another subject from the address still signs in', async (t) => {
  const { gw, issuer } = await setUp(t, {}, {});
  const stolen = async () => await issuer.sign(actionsClaims(gw), { key: await issuer.stranger(issuer.current().kid) });
  for (let i = 0; i < 5; i++) refusedNaming(t, await signInWith(gw, await stolen()), 'signature');
  const waiting = await signInWith(gw, await issuer.sign(actionsClaims(gw)));
  t.like(waiting, { status: 429, body: { code: 'RATE_LIMITED' } });
  t.truthy(waiting.headers.get('retry-after'));
  const other = await signInWith(
    gw,
    await issuer.sign(actionsClaims(gw, { sub: 'repo:octo-org/api:ref:refs/heads/main', repository_id: '987654321' })),
  );
  t.is(other.status, 201, other.text);
});

/** A sign-in with a DPoP proof of `signer` (docs/spec.md §4.24 item 2): no `ath`, as no credential exists yet. */
function signInWithProof(gw: TestGateway, signer: ProofSigner, token: string, spec: ProofSpec = {}) {
  const raw = JSON.stringify({ token });
  const request = { method: 'POST', htu: `${gw.url}/api/session/jwt`, credential: '', body: Buffer.from(raw) };
  const proof = buildProof(signer, request, gw.clock.now(), { ...spec, claims: { ath: undefined, ...spec.claims } });
  return gw.call('POST', '/api/session/jwt', { headers: { DPoP: proof, 'content-type': 'application/json' }, raw });
}

test('a sign-in with a DPoP proof is bound to its key; a token carrying cnf.jkt needs a proof by that key', async (t) => {
  const { gw, issuer } = await setUp(t);
  const signer = await makeSigner('ES256');
  const stranger = await makeSigner('ES256');
  const bound = await signInWithProof(gw, signer, await issuer.sign(actionsClaims(gw, { cnf: { jkt: signer.jkt } })));
  t.is(bound.status, 201, bound.text);
  t.like(bound.body, { kind: 'jwt', bound: true, jkt: signer.jkt });
  const sessionId = bound.body.sessionId as string;
  t.like(await gw.call('GET', '/api/session', { headers: bearer(sessionId) }), { status: 401, body: { code: 'PROOF_MISSING' } });
  t.like(await gw.bound(signer, 'GET', '/api/session', { bearer: sessionId }), { status: 200, body: { bound: true } });
  // Without cnf a proof still binds the session it signs in.
  t.like((await signInWithProof(gw, stranger, await issuer.sign(actionsClaims(gw)))).body, { bound: true, jkt: stranger.jkt });
  const sendersToken = () => issuer.sign(actionsClaims(gw, { cnf: { jkt: signer.jkt } }));
  refusedNaming(t, await signInWith(gw, await sendersToken()), 'cnf.jkt');
  refusedNaming(t, await signInWithProof(gw, stranger, await sendersToken()), 'cnf.jkt');
  refusedNaming(t, await signInWithProof(gw, signer, await issuer.sign(actionsClaims(gw, { cnf: { x5t: 'abc' } }))), 'cnf.jkt');
});

test('a sign-in proof is checked as any proof, with no ath, and used once', async (t) => {
  const { gw, issuer } = await setUp(t);
  const signer = await makeSigner('ES256');
  const withAth = await signInWithProof(gw, signer, await issuer.sign(actionsClaims(gw)), { claims: { ath: 'x'.repeat(43) } });
  t.like(withAth, { status: 401, body: { code: 'PROOF_BINDING_MISMATCH' } });
  const otherUrl = await signInWithProof(gw, signer, await issuer.sign(actionsClaims(gw)), { claims: { htu: `${gw.url}/api/session` } });
  t.like(otherUrl, { status: 401, body: { code: 'PROOF_BINDING_MISMATCH' } });
  const old = await signInWithProof(gw, signer, await issuer.sign(actionsClaims(gw)), {
    claims: { iat: Math.floor(gw.clock.now() / 1000) - 120 },
  });
  t.like(old, { status: 401, body: { code: 'PROOF_CLOCK_SKEW' } });
  const jti = 'one-proof';
  t.is((await signInWithProof(gw, signer, await issuer.sign(actionsClaims(gw)), { claims: { jti } })).status, 201);
  const replay = await signInWithProof(gw, signer, await issuer.sign(actionsClaims(gw)), { claims: { jti } });
  t.like(replay, { status: 401, body: { code: 'PROOF_REPLAYED' } });
});

test('a refused sign-in is audited as denied under the subject it claimed, never with its token', async (t) => {
  const { gw, issuer, admin } = await setUp(t);
  const token = await issuer.sign(actionsClaims(gw), { key: await issuer.stranger(issuer.current().kid) });
  refusedNaming(t, await signInWith(gw, token), 'signature');
  const audit = await admin.get('/api/audit?operation=session.jwt');
  t.like(audit.body.items[0], {
    operation: 'session.jwt',
    principal: 'repo:octo-org/app:ref:refs/heads/main',
    outcome: 'denied',
    status: 401,
    code: 'WRONG_CREDENTIAL',
  });
  for (const part of token.split('.')) t.false(audit.text.includes(part));
});

/** The gateway's key-server calls of workload sign-ins so far, as its metrics count them (every method named `workload…`). */
async function workloadCalls(gw: TestGateway): Promise<number> {
  const scrape = await (await fetch(gw.gateway.metricsUrl()!)).text();
  const counts = scrape.matchAll(/keygate_keyserver_call_duration_seconds_count\{method="workload[A-Za-z]*",outcome="[^"]+"\} (\d+)/g);
  return [...counts].reduce((sum, match) => sum + Number(match[1]), 0);
}

test('a sign-in of a known issuer is one key-server call; the issuer moved, removed or made inline is what the next sign-in meets', async (t) => {
  const { gw, issuer, admin } = await setUp(t, {}, { ...UNTHROTTLED, metricsPort: 0 });
  t.is((await signInWith(gw, await issuer.sign(actionsClaims(gw)))).status, 201);
  const before = await workloadCalls(gw);
  for (let i = 0; i < 3; i++) t.is((await signInWith(gw, await issuer.sign(actionsClaims(gw)))).status, 201);
  t.is((await workloadCalls(gw)) - before, 3, 'one key-server call per sign-in once the issuer is known');
  // The issuer's keys move to another endpoint: the set the gateway fetched before is no longer the issuer's.
  const moved = await startIssuer(t);
  const github = (await admin.get('/api/trust/issuers/github')).body;
  t.is((await admin.put('/api/trust/issuers/github', { ...github, name: undefined, jwksUri: moved.jwksUri })).status, 200);
  refusedNaming(t, await signInWith(gw, await issuer.sign(actionsClaims(gw))), 'signature');
  t.is((await signInWith(gw, await moved.sign(actionsClaims(gw)))).status, 201);
  t.is(moved.fetches(), 1);
  // Removed: refused whatever the gateway remembers.
  t.is((await admin.del('/api/trust/issuers/github')).status, 204);
  refusedNaming(t, await signInWith(gw, await moved.sign(actionsClaims(gw))), 'iss');
  // Back with its keys inline: the key server's own keys, the endpoint is not asked again.
  const inline = { ...github, name: undefined, jwksUri: undefined, jwks: { keys: moved.published() } };
  t.is((await admin.put('/api/trust/issuers/github', inline)).status, 200);
  refusedNaming(t, await signInWith(gw, await issuer.sign(actionsClaims(gw))), 'signature');
  t.is((await signInWith(gw, await moved.sign(actionsClaims(gw)))).status, 201);
  t.is(moved.fetches(), 1);
});
