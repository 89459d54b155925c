import test from 'ava';
import type { GatewayConfigInput } from '../../src/app/config/config.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { makeSigner, type ProofSigner } from '../_support/proof-builder.js';

/** Issue 13 §2: one key sending fresh proofs must not starve the replay cache for every other key. */
const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

async function boundTo(gw: TestGateway, signer: ProofSigner): Promise<string> {
  const alice = await gw.login('alice');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag as string;
  const reply = await gw.call('POST', '/api/session/scoped', {
    headers: bearer(alice),
    body: { objects: [ttag], senderKey: signer.publicJwk },
  });
  if (reply.status !== 201) throw new Error(`scoped: ${reply.status} ${reply.text}`);
  return reply.body.sessionId as string;
}

async function twoKeys(t: Parameters<typeof startGateway>[0], config: GatewayConfigInput) {
  const gw = await startGateway(t, config);
  const [greedy, other] = await Promise.all([makeSigner('ES256'), makeSigner('ES256')]);
  return { gw, greedy, other, greedySession: await boundTo(gw, greedy), otherSession: await boundTo(gw, other) };
}

/** Fresh proofs of one key until the gateway refuses one (at most `limit`): answers the refusal and how many passed. */
async function flood(gw: TestGateway, signer: ProofSigner, session: string, limit: number) {
  for (let sent = 0; sent < limit; sent++) {
    const reply = await gw.bound(signer, 'GET', '/api/session', { bearer: session });
    if (reply.status !== 200) return { reply, accepted: sent };
  }
  return { reply: undefined, accepted: limit };
}

test('a key that fills its share gets 503 with Retry-After; proofs of other keys are still accepted', async (t) => {
  const { gw, greedy, other, greedySession, otherSession } = await twoKeys(t, { replayCacheSize: 100 });
  const { reply, accepted } = await flood(gw, greedy, greedySession, 101);
  t.truthy(reply, 'the flooding key was never refused');
  t.is(reply!.status, 503, reply!.text);
  t.is(reply!.body.code, 'PROOF_REPLAY_CACHE_FULL');
  t.regex(reply!.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  t.true(accepted < 100, `the flooding key filled the whole cache (${accepted})`);
  t.is(reply!.body.scope, 'session');
  for (let i = 0; i < 3; i++) t.is((await gw.bound(other, 'GET', '/api/session', { bearer: otherSession })).status, 200);
});

test('the share is configurable; a replay inside the window is caught even when the share is full', async (t) => {
  const { gw, greedy, other, greedySession, otherSession } = await twoKeys(t, { replayCacheSize: 10, replayCacheKeyShare: 3 });
  const jti = 'replayed-jti-0001';
  t.is((await gw.bound(greedy, 'GET', '/api/session', { bearer: greedySession }, undefined, { claims: { jti } })).status, 200);
  const { reply, accepted } = await flood(gw, greedy, greedySession, 10);
  t.is(accepted, 2);
  t.is(reply?.body.code, 'PROOF_REPLAY_CACHE_FULL');
  gw.clock.advance(20_000);
  const replay = await gw.bound(greedy, 'GET', '/api/session', { bearer: greedySession }, undefined, { claims: { jti } });
  t.is(replay.status, 401, replay.text);
  t.is(replay.body.code, 'PROOF_REPLAYED');
  t.is((await gw.bound(other, 'GET', '/api/session', { bearer: otherSession })).status, 200);
  // Once the window has passed, the key's entries are gone and its fresh proofs are accepted again.
  gw.clock.advance(60_000);
  t.is((await gw.bound(greedy, 'GET', '/api/session', { bearer: greedySession })).status, 200);
});
