import test from 'ava';
import { startGateway } from '../_support/gateway.js';

test('fixed /api paths match as the router matched them: case-insensitive, strict, HEAD by GET, 405 for another method', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  const bearer = { Authorization: `Bearer ${session}` };
  const read = await gw.call('GET', '/api/session', { headers: bearer });
  t.is(read.status, 200);
  t.is(read.body.user, 'alice');
  t.is((await gw.call('GET', '/api/Session', { headers: bearer })).status, 200);
  const head = await gw.call('HEAD', '/api/session', { headers: bearer });
  t.is(head.status, 200);
  t.is(head.text, '');
  t.is((await gw.call('GET', '/api/session/', { headers: bearer })).status, 404);
  const wrongMethod = await gw.call('PUT', '/api/session', { headers: bearer });
  t.is(wrongMethod.status, 405);
  t.truthy(wrongMethod.headers.get('allow'));
  // The fixed path wins over the parameter route of the same method (declared first).
  const verify = await gw.call('GET', '/api/audit/verify', { headers: bearer });
  t.not(verify.status, 404);
  t.is((await gw.call('GET', '/api/session')).status, 401);
});
