import { TlsKeyServer } from '../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../src/adapters/random/crypto-random.js';
import type { GatewayConfigInput } from '../src/app/config.js';
import { Secret } from '../src/domain/secret/secret.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { clientConfig, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import type { Figure } from './figure-table.js';
import { tlsHopFloorMs } from './floors.js';
import type { LoadClient, Measured } from './load-client.js';
import { ADMIN_PASSWORD, exportRequest, type Job, run, signIn } from './bench-run.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';

/** The export request of one admin key on the gateway at `url`: signed in, a key made, a client point (one in flight). */
export async function exportJob(url: string): Promise<Job> {
  const { headers, body } = await exportRequest(url, await signIn(url));
  return { url: `${url}/keys/export`, method: 'POST', headers, body, connections: 1 };
}

/** A gateway over `keyServer` and its export run (one in flight: latencies compare). */
async function exportRun(load: LoadClient, name: string, keyServer: GatewayConfigInput['keyServer'], gateways: Gateway[]): Promise<Measured> {
  const gateway = await createGateway({ keyServer, ...DEPLOYED }, { logger: deployedLogger() });
  gateways.push(gateway);
  const { url } = await gateway.listen(0, '127.0.0.1');
  return run(load, name, await exportJob(url));
}

/**
 * The daemon hop: `POST /keys/export` through a `keygate keyserver` process over TLS 1.3 with resumed
 * sessions, less the same export with the key server embedded, one request in flight; beside a bare
 * Node TLS 1.3 resumed connect + one request + close between two processes of this machine, mutual
 * like the hop (the same client certificate, pinned by the server).
 */
export async function daemonHopFigure(load: LoadClient): Promise<Figure> {
  const daemon = await spawnDaemon(untilKillAll, ['--data', ':memory:', '--port', '0', '--admin-password', ADMIN_PASSWORD]);
  const gateways: Gateway[] = [];
  try {
    const embedded = await exportRun(load, 'export, embedded, 1 in flight', { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, gateways);
    const client = await clientConfig();
    const tls = await exportRun(
      load,
      'export, TLS daemon (resumed), 1 in flight',
      { kind: 'tls', url: daemon.url, fingerprint: daemon.fingerprint, resumeSessions: true, ...client },
      gateways,
    );
    const floorMs = await tlsHopFloorMs({ cert: client.clientCert, key: client.clientKey });
    const adapterMs = await adapterExportMs({ url: daemon.url, fingerprint: daemon.fingerprint, ...client });
    // One request in flight: a request's whole time is the run's length over its requests. (The load
    // generator's latencies are whole milliseconds: a sub-millisecond export would read as 0.)
    const perRequestMs = (row: Measured) => 1000 / row.requestsPerSecond;
    const hopMs = perRequestMs(tls) - perRequestMs(embedded);
    return {
      figure: 'export through the daemon, TLS hop',
      measured: `${hopMs.toFixed(3)} ms/request (${perRequestMs(tls).toFixed(3)} - ${perRequestMs(embedded).toFixed(3)})`,
      floor: `bare mutual TLS 1.3 resumed round: ${floorMs.toFixed(3)} ms`,
      value: hopMs / floorMs,
      goal: { op: '<=', target: 1.2, unit: 'x' },
      runs: [tls, embedded],
      note:
        'the hop is split over two processes: neither side saturates one core at one request in flight\n' +
        `    the same export at the key-server port, without the gateway's HTTP side or the load generator (connect, export, close on TlsKeyServer, ` +
        `one after another): ${adapterMs.toFixed(3)} ms, ${(adapterMs / floorMs).toFixed(2)}x the floor`,
    };
  } finally {
    for (const gateway of gateways) await gateway.close();
    await daemon.stop();
    await killAllDaemons();
  }
}

/**
 * The export as the gateway's key-server adapter makes it, timed in this process: a resumed connect,
 * one export call and the close on `TlsKeyServer`, one after another, for two seconds after a warm-up.
 * It leaves out the gateway's HTTP side and the third process (the load generator) the hop row has, so
 * it shows how much of the hop the key-server protocol itself costs. Milliseconds per export.
 */
async function adapterExportMs(daemon: { url: string; fingerprint: string; clientCert: string; clientKey: string }, seconds = 2): Promise<number> {
  const keyServer = await TlsKeyServer.start({ ...daemon, timeoutMs: 5_000, resumeSessions: true }, new CryptoRandom());
  const { token } = await keyServer.login('admin', new Secret(ADMIN_PASSWORD));
  const first = await keyServer.connect(token);
  const { ttag } = await first.generateKey({ keyLen: 16 });
  await first.close();
  const once = async () => {
    const connection = await keyServer.connect(token);
    try {
      (await connection.exportKey(ttag)).key.fill(0);
    } finally {
      await connection.close();
    }
  };
  for (let i = 0; i < 50; i++) await once();
  const started = performance.now();
  let rounds = 0;
  while (performance.now() - started < seconds * 1000) {
    await once();
    rounds++;
  }
  await keyServer.close();
  return (performance.now() - started) / rounds;
}
