import test from 'ava';
import { networkInterfaces } from 'node:os';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';

test.after.always(killAllGateways);

/** An IPv4 address of this machine other than loopback, when it has one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;

/** Where `keygate serve` says its metrics listener is bound. */
function metricsUrl(output: string): URL {
  const line = /^keygate: metrics url=(\S+)$/m.exec(output);
  if (line === null) throw new Error(`no metrics line in:\n${output}`);
  return new URL(line[1]!);
}

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status === 200;
  } catch {
    return false;
  }
}

test('the metrics listener binds to 127.0.0.1 even when the gateway listens on 0.0.0.0', async (t) => {
  const gateway = await spawnGateway(t, { TE_GATEWAY_HOST: '0.0.0.0', TE_GATEWAY_METRICS_PORT: '0', TE_KEYSERVER_STORE: 'memory' });
  t.is(new URL(gateway.url).hostname, '0.0.0.0', 'the API listens everywhere');
  const metrics = metricsUrl(gateway.output());
  t.is(metrics.hostname, '127.0.0.1', 'bound to loopback only');
  t.true(await reachable(`http://127.0.0.1:${metrics.port}/metrics`));
  if (outside === undefined) t.log('no non-loopback IPv4 address here: the refusal from outside is not tried');
  else t.false(await reachable(`http://${outside}:${metrics.port}/metrics`), `not reachable at ${outside}`);
});

test('TE_GATEWAY_METRICS_HOST binds the metrics listener where it says', async (t) => {
  const host = outside ?? '0.0.0.0';
  const gateway = await spawnGateway(t, { TE_GATEWAY_METRICS_HOST: host, TE_GATEWAY_METRICS_PORT: '0', TE_KEYSERVER_STORE: 'memory' });
  t.is(new URL(gateway.url).hostname, '127.0.0.1');
  const metrics = metricsUrl(gateway.output());
  t.is(metrics.hostname, host);
  t.true(await reachable(metrics.href));
  t.false(gateway.output().includes('is not a keygate variable'));
});
