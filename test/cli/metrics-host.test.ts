import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';

test.after.always(killAllGateways);

/**
 * Another address of this machine, still on loopback (all of 127.0.0.0/8 is): a listener bound to
 * every address answers there too, one bound to 127.0.0.1 does not. The tests reach no other address.
 */
const OTHER_LOOPBACK = '127.0.0.2';

/** Where `keygate serve` says its metrics listener is bound: the line follows "listening", so it is awaited (5 s at most). */
async function metricsUrl(output: () => string): Promise<URL> {
  for (const deadline = Date.now() + 5_000; ; await sleep(20)) {
    const line = /^keygate: metrics url=(\S+)$/m.exec(output());
    if (line !== null) return new URL(line[1]!);
    if (Date.now() > deadline) throw new Error(`no metrics line in:\n${output()}`);
  }
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
  const metrics = await metricsUrl(() => gateway.output());
  t.is(metrics.hostname, '127.0.0.1', 'bound to loopback only');
  t.true(await reachable(`http://127.0.0.1:${metrics.port}/metrics`));
  t.false(
    await reachable(`http://${OTHER_LOOPBACK}:${metrics.port}/metrics`),
    `not reachable at ${OTHER_LOOPBACK}, as it would be if bound to 0.0.0.0`,
  );
});

test('TE_GATEWAY_METRICS_HOST binds the metrics listener where it says', async (t) => {
  const host = OTHER_LOOPBACK;
  const gateway = await spawnGateway(t, { TE_GATEWAY_METRICS_HOST: host, TE_GATEWAY_METRICS_PORT: '0', TE_KEYSERVER_STORE: 'memory' });
  t.is(new URL(gateway.url).hostname, '127.0.0.1');
  const metrics = await metricsUrl(() => gateway.output());
  t.is(metrics.hostname, host);
  t.true(await reachable(metrics.href));
  t.false(await reachable(`http://127.0.0.1:${metrics.port}/metrics`), 'not at the gateway host');
  t.false(gateway.output().includes('is not a keygate variable'));
});
