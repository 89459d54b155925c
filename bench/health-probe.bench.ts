import { createGateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger } from './deployed.js';
import { startBareKoa } from './floors.js';
import { type LoadClient, noFailures, ratioTo } from './load-client.js';
import { type Figure, roundsNote, rps } from './table.js';

/**
 * What answering plain health probes before Koa (`withHealthProbes`) is worth. `GET /health` as a load
 * balancer sends it, beside the same probe with a query string, which the probe path hands to Koa,
 * whose root route answers it with the same body and headers: the second figure is the probe as it
 * would be served if the path before Koa were folded into the routes. That Koa path is also measured
 * beside bare Koa serving the same JSON, the floor of the `GET /health` figure, against that figure's
 * goal (0.85).
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...DEPLOYED },
    { logger: deployedLogger() },
  );
  const { url } = await gateway.listen(0, '127.0.0.1');
  const bare = await startBareKoa({ ok: true, ksFingerprint: gateway.ksFingerprint, sessions: 0 });
  try {
    const outside = { name: 'GET /health (answered before Koa)', job: { url: `${url}/health` } };
    const koaPath = { name: 'GET /health?via=koa (the Koa route)', job: { url: `${url}/health?via=koa` } };
    const bareKoa = { name: 'bare Koa GET / (the /health JSON)', job: { url: bare.url } };
    const gain = await load.paired(koaPath, outside, ratioTo);
    const viaKoa = await load.paired(bareKoa, koaPath, ratioTo);
    noFailures(gain.row, gain.floor, viaKoa.row, viaKoa.floor);
    return [
      {
        figure: 'GET /health before Koa',
        measured: rps(gain.row),
        floor: `the same probe through Koa: ${rps(gain.floor)}`,
        value: gain.value,
        goal: { op: '>=', target: 1 },
        runs: [gain.row, gain.floor],
        note: roundsNote(gain.values),
      },
      {
        figure: 'GET /health through Koa',
        measured: rps(viaKoa.row),
        floor: `bare Koa, same JSON: ${rps(viaKoa.floor)}`,
        value: viaKoa.value,
        goal: { op: '>=', target: 0.85 },
        runs: [viaKoa.row, viaKoa.floor],
        note: roundsNote(viaKoa.values),
      },
    ];
  } finally {
    bare.close();
    await gateway.close();
  }
}
