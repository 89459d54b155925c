import test from 'ava';
import { SystemClock } from '../../src/adapters/clock/system-clock.js';
import { MemorySessionStore } from '../../src/adapters/session-store/memory-session-store.js';
import { SessionStoreUnavailableError } from '../../src/domain/errors/index.js';
import type { SessionRecord } from '../../src/domain/session/session.js';
import { PASSWORDS, startFaultyGateway } from '../_support/gateway.js';

const alice = { body: { user: 'alice', password: PASSWORDS.alice } };

test('at the per-principal cap a new login is 429 SESSION_LIMIT, nothing is evicted, and the refused token is revoked', async (t) => {
  const gw = await startFaultyGateway(t, { maxSessionsPerPrincipal: 2 });
  const first = await gw.call('POST', '/api/session', alice);
  const second = await gw.call('POST', '/login', alice);
  t.is(first.status, 201);
  t.is(second.status, 200);
  const revokedBefore = gw.keyServerCalls.filter((call) => call === 'revokeToken').length;
  const refused = await gw.call('POST', '/api/session', alice);
  t.is(refused.status, 429);
  t.is(refused.body.code, 'SESSION_LIMIT');
  t.truthy(refused.headers.get('retry-after'));
  const root = await gw.call('POST', '/login', alice);
  t.is(root.status, 429);
  t.is(root.body.error, 'too many sessions');
  t.is(gw.keyServerCalls.filter((call) => call === 'revokeToken').length, revokedBefore + 2);
  // Both live sessions still work.
  t.is((await gw.call('GET', '/api/session', { headers: { authorization: `Bearer ${first.body.sessionId}` } })).status, 200);
  t.is((await gw.call('POST', '/keys', { headers: { 'x-session': second.body.sessionId } })).status, 200);
  // Another principal is not affected; after a logout alice may sign in again.
  t.is((await gw.call('POST', '/login', { body: { user: 'bob', password: PASSWORDS.bob } })).status, 200);
  t.is((await gw.call('POST', '/logout', { headers: { 'x-session': second.body.sessionId } })).status, 200);
  t.is((await gw.call('POST', '/login', alice)).status, 200);
});

/** A memory store whose writes can be switched to fail, as a Redis outage would. */
class FlakySessionStore extends MemorySessionStore {
  failPuts = false;
  override async put(key: string, record: SessionRecord): Promise<void> {
    if (this.failPuts) throw new SessionStoreUnavailableError('session store unavailable');
    return super.put(key, record);
  }
}

test('a token whose session could not be stored is revoked at once', async (t) => {
  const store = new FlakySessionStore(new SystemClock());
  const gw = await startFaultyGateway(t, {}, { sessionStore: store });
  store.failPuts = true;
  const reply = await gw.call('POST', '/api/session', alice);
  t.is(reply.status, 503);
  t.deepEqual(gw.keyServerCalls.slice(-2), ['login', 'revokeToken']);
});

test('a logout whose token revocation failed is retried, not forgotten', async (t) => {
  const gw = await startFaultyGateway(t);
  const session = (await gw.call('POST', '/login', alice)).body.sessionId as string;
  gw.faults.unreachable = true;
  t.is((await gw.call('POST', '/logout', { headers: { 'x-session': session } })).status, 200);
  t.false(gw.keyServerCalls.includes('revokeToken'));
  gw.faults.unreachable = false;
  // The next sign-in or sign-out carries the pending revocation out first.
  t.is((await gw.call('POST', '/login', { body: { user: 'bob', password: PASSWORDS.bob } })).status, 200);
  t.true(gw.keyServerCalls.includes('revokeToken'));
  t.is((await gw.call('POST', '/keys', { headers: { 'x-session': session } })).status, 401);
});
