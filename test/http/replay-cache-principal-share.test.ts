import test from 'ava';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';
import { buildProof, makeSigner, type ProofSigner } from '../_support/proof-builder.js';

// One principal must not starve the replay cache for every other principal by spreading its proofs
// over many keys: scoped sessions with fresh keys cost nothing to mint, so the cache keeps a share per
// principal as well as per key, and the minting of such sessions is rate-bounded per principal.
const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

async function scopedFor(gw: TestGateway, user: 'alice' | 'bob', signer: ProofSigner) {
  const session = await gw.login(user);
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': session } })).body.ttag as string;
  return gw.call('POST', '/api/session/scoped', { headers: bearer(session), body: { objects: [ttag], senderKey: signer.publicJwk } });
}

test('attack: one principal fills the replay cache with twenty keys -> another principal is still served', async (t) => {
  const gw = await startGateway(t, { replayCacheSize: 40, replayCacheKeyShare: 2 });
  let accepted = 0;
  for (let i = 0; i < 20; i++) {
    const signer = await makeSigner('ES256');
    const minted = await scopedFor(gw, 'alice', signer);
    t.is(minted.status, 201, minted.text);
    for (let proof = 0; proof < 2; proof++) {
      const reply = await gw.bound(signer, 'GET', '/api/session', { bearer: minted.body.sessionId });
      if (reply.status === 200) accepted++;
      else t.like(reply.body, { code: 'PROOF_REPLAY_CACHE_FULL', scope: 'session' });
    }
  }
  t.true(accepted < 40, `one principal filled the whole cache (${accepted} entries)`);
  const signer = await makeSigner('ES256');
  const bob = await scopedFor(gw, 'bob', signer);
  t.is(bob.status, 201, bob.text);
  for (let i = 0; i < 2; i++) {
    const reply = await gw.bound(signer, 'GET', '/api/session', { bearer: bob.body.sessionId });
    t.is(reply.status, 200, reply.text);
  }
});

test('minting scoped sessions is rate-bounded per principal: past it 429 RATE_LIMITED with Retry-After', async (t) => {
  const gw = await startGateway(t, { sessionMintsPerMinute: 3 });
  gw.clock.set(Math.ceil(gw.clock.now() / 60_000) * 60_000);
  for (let i = 0; i < 3; i++) t.is((await scopedFor(gw, 'alice', await makeSigner('ES256'))).status, 201);
  const refused = await scopedFor(gw, 'alice', await makeSigner('ES256'));
  t.is(refused.status, 429, refused.text);
  t.like(refused.body, { code: 'RATE_LIMITED', retryable: true });
  t.is(refused.headers.get('retry-after'), '60');
  t.is((await scopedFor(gw, 'bob', await makeSigner('ES256'))).status, 201, 'another principal mints on');
  gw.clock.advance(60_000);
  t.is((await scopedFor(gw, 'alice', await makeSigner('ES256'))).status, 201, 'the next minute mints again');
});

test('keygate serve reads the principal share and the minting rate from its environment', async (t) => {
  const adminPassword = 'admin-password-0';
  const gw = await spawnGateway(t, {
    TE_KEYSERVER_STORE: 'memory',
    TE_KEYSERVER_ADMIN_PASSWORD: adminPassword,
    TE_GATEWAY_REPLAY_CACHE_SIZE: '100',
    TE_GATEWAY_REPLAY_CACHE_KEY_SHARE: '2',
    TE_GATEWAY_REPLAY_CACHE_PRINCIPAL_SHARE: '3',
    TE_GATEWAY_SESSION_MINTS_PER_MINUTE: '2',
  });
  const login = await call(gw.url, 'POST', '/api/session', { body: { user: 'admin', password: adminPassword } });
  t.is(login.status, 201, login.text);
  const admin = bearer(login.body.sessionId);
  const ttag = (await call(gw.url, 'POST', '/api/keys', { headers: admin, body: {} })).body.ttag as string;
  const mint = async (signer: ProofSigner) =>
    call(gw.url, 'POST', '/api/session/scoped', { headers: admin, body: { objects: [ttag], senderKey: signer.publicJwk } });
  const signers = [await makeSigner('ES256'), await makeSigner('ES256'), await makeSigner('ES256')];
  const minute = () => Math.floor(Date.now() / 60_000);
  const mintThree = async () => {
    const began = minute();
    const sessions = [(await mint(signers[0]!)).body.sessionId as string, (await mint(signers[1]!)).body.sessionId as string];
    return { sessions, third: await mint(signers[2]!), crossed: minute() !== began };
  };
  // The minting rate counts per minute of the process's real clock: three mints that crossed into a
  // new minute are minted again at once, well inside it, rather than waiting for a minute to begin.
  let round = await mintThree();
  if (round.crossed && round.third.status !== 429) round = await mintThree();
  const { sessions, third } = round;
  t.is(third.status, 429, third.text);
  t.is(third.body.code, 'RATE_LIMITED');
  const use = (i: number) => {
    const credential = sessions[i]!;
    const proof = buildProof(signers[i]!, { method: 'GET', htu: `${gw.url}/api/session`, credential, body: Buffer.alloc(0) }, Date.now());
    return call(gw.url, 'GET', '/api/session', { headers: { ...bearer(credential), DPoP: proof } });
  };
  t.is((await use(0)).status, 200);
  t.is((await use(0)).status, 200);
  t.is((await use(1)).status, 200);
  const over = await use(1);
  t.is(over.status, 503, over.text);
  t.like(over.body, { code: 'PROOF_REPLAY_CACHE_FULL', scope: 'session' });
  t.regex(over.body.detail, /principal's share/);
});
