import test from 'ava';
import { startGateway } from '../_support/gateway.js';

test('the seven operations match their fixed paths as the router did: case-insensitive, strict, HEAD by GET', async (t) => {
  const gw = await startGateway(t);
  t.is((await gw.call('GET', '/health')).status, 200);
  t.is((await gw.call('GET', '/HEALTH')).status, 200);
  const head = await gw.call('HEAD', '/health');
  t.is(head.status, 200);
  t.is(head.text, '');
  t.is((await gw.call('GET', '/health/')).status, 404);
  t.is((await gw.call('GET', '/health/x')).status, 404);
  t.is((await gw.call('GET', '/%E2%84%AAeys')).status, 404);
  // A known path with another method is no route of the seven operations (seed 000 §4: 404).
  t.is((await gw.call('GET', '/keys')).status, 404);
  t.is((await gw.call('POST', '/health')).status, 404);
  const session = await gw.login('alice');
  const generated = await gw.call('POST', '/Keys', { headers: { 'X-Session': session }, body: {} });
  t.is(generated.status, 200);
  t.truthy(generated.body.ttag);
});
