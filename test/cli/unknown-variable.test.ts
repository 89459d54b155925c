import test from 'ava';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';

test.after.always(killAllGateways);

test('keygate serve warns once on stderr about a mistyped TE_* variable, names the nearest one, and boots', async (t) => {
  const gateway = await spawnGateway(t, { TE_GATEWAY_TYPO_PORT: '9999', TE_KEYSERVER_ADMIN_PASSWORD: 'typo-admin-pw' });
  const warnings = gateway
    .output()
    .split('\n')
    .filter((line) => line.includes('is not a keygate variable'));
  t.deepEqual(warnings, ['keygate: warning: TE_GATEWAY_TYPO_PORT is not a keygate variable; did you mean TE_GATEWAY_PORT?']);
  t.not(gateway.port, 9999);
  const health = await fetch(`${gateway.url}/health`);
  t.is(health.status, 200);
  t.is(await gateway.stop(), 0);
});
