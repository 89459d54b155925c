import { TlsKeyServer } from '../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../src/adapters/random/crypto-random.js';
import type { GatewayConfigInput } from '../src/app/config.js';
import { Secret } from '../src/domain/secret/secret.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { clientConfig, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import type { Figure } from './figure-table.js';
import { floorRoundMs, startBareKoa, startTlsFloor, tlsHopFloorMs } from './floors.js';
import type { LoadClient, Measured } from './load-client.js';
import { ADMIN_PASSWORD, exportRequest, type Job, medianRound, ROUNDS, ratios, roundsNote, run, signIn, warmUp } from './bench-run.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';

/** The export request of one admin key on the gateway at `url`: signed in, a key made, a client point (one in flight). */
export async function exportJob(url: string): Promise<Job> {
  const { headers, body } = await exportRequest(url, await signIn(url));
  return { url: `${url}/keys/export`, method: 'POST', headers, body, connections: 1 };
}

/**
 * Warm-up of the hop's export rows. At one request in flight the TLS row serves some 300 requests a
 * second: after one second much of the gateway's path still runs unoptimized (V8 optimizes a function
 * once it has run often enough), and the row measured the JIT, not the hop. On this machine it settles
 * after about ten seconds (3.3-3.8 ms per TLS export after 1 s, 2.4-2.5 ms after 10 s or 20 s); the
 * embedded row reads the same either way. The floors' code is small and gets a shorter warm-up.
 */
const EXPORT_WARM_UP_SECONDS = 10;
const FLOOR_WARM_UP_SECONDS = 3;

/** A gateway over `keyServer`, listening, and its export request. */
async function exportGateway(keyServer: GatewayConfigInput['keyServer'], gateways: Gateway[]): Promise<Job> {
  const gateway = await createGateway({ keyServer, ...DEPLOYED }, { logger: deployedLogger() });
  gateways.push(gateway);
  const { url } = await gateway.listen(0, '127.0.0.1');
  return exportJob(url);
}

/** One request in flight: a request's whole time is the run's length over its requests (the generator's latencies are whole milliseconds). */
const perRequestMs = (row: Measured) => 1000 / row.requestsPerSecond;

/**
 * The daemon hop: `POST /keys/export` through a `keygate keyserver` process over TLS 1.3 with resumed
 * sessions, less the same export with the key server embedded, one request in flight; beside a bare
 * Node TLS 1.3 resumed connect + one request + close between two processes of this machine, mutual
 * like the hop (the same client certificate, pinned by the server).
 *
 * Measured in `ROUNDS` rounds (the floor, the floor in place, the embedded row, the TLS row), and the
 * median round shown: with three processes on two shared cores, one run of the TLS row took 2.2 ms per
 * request and the next one 3.5 ms, and a single run would decide the figure.
 */
export async function daemonHopFigure(load: LoadClient): Promise<Figure> {
  const daemon = await spawnDaemon(untilKillAll, ['--data', ':memory:', '--port', '0', '--admin-password', ADMIN_PASSWORD]);
  const gateways: Gateway[] = [];
  try {
    const client = await clientConfig();
    const tlsClient = { cert: client.clientCert, key: client.clientKey };
    const embeddedJob = await exportGateway({ kind: 'embedded', adminPassword: ADMIN_PASSWORD }, gateways);
    const tlsJob = await exportGateway({ kind: 'tls', url: daemon.url, fingerprint: daemon.fingerprint, resumeSessions: true, ...client }, gateways);
    const rounds: { floorMs: number; inPlaceMs: number; embedded: Measured; tls: Measured; value: number }[] = [];
    const floor = await startTlsFloor(tlsClient);
    let inPlace: Awaited<ReturnType<typeof startFloorInPlace>> | undefined;
    try {
      await floor.round(); // the one full handshake: every round after it resumes
      inPlace = await startFloorInPlace(tlsClient);
      await floorRoundMs(floor, FLOOR_WARM_UP_SECONDS);
      for (const job of [inPlace.plain, inPlace.rounding]) await warmUp(load, 'floor in place', job, FLOOR_WARM_UP_SECONDS);
      for (const job of [embeddedJob, tlsJob]) await warmUp(load, 'export', job, EXPORT_WARM_UP_SECONDS);
      for (let round = 0; round < ROUNDS; round++) {
        const floorMs = await floorRoundMs(floor, 2);
        const bare = await run(load, 'bare Koa, 1 in flight', inPlace.plain);
        const rounding = await run(load, 'bare Koa making one floor round per request, 1 in flight', inPlace.rounding);
        inPlace.check(bare, rounding);
        const embedded = await run(load, 'export, embedded, 1 in flight', embeddedJob);
        const tls = await run(load, 'export, TLS daemon (resumed), 1 in flight', tlsJob);
        const inPlaceMs = perRequestMs(rounding) - perRequestMs(bare);
        rounds.push({ floorMs, inPlaceMs, embedded, tls, value: (perRequestMs(tls) - perRequestMs(embedded)) / floorMs });
      }
    } finally {
      inPlace?.close();
      floor.close();
    }
    const { floorMs, inPlaceMs, embedded, tls, value } = medianRound(rounds);
    const hopMs = perRequestMs(tls) - perRequestMs(embedded);
    const toInPlace = rounds.map((each) => (perRequestMs(each.tls) - perRequestMs(each.embedded)) / each.inPlaceMs);
    const httpsMs = await tlsHopFloorMs(tlsClient, FLOOR_WARM_UP_SECONDS, 'https');
    const adapterMs = await adapterExportMs({ url: daemon.url, fingerprint: daemon.fingerprint, ...client });
    return {
      figure: 'export through the daemon, TLS hop',
      measured: `${hopMs.toFixed(3)} ms/request (${perRequestMs(tls).toFixed(3)} - ${perRequestMs(embedded).toFixed(3)})`,
      floor: `bare mutual TLS 1.3 resumed round: ${floorMs.toFixed(3)} ms`,
      value,
      goal: { op: '<=', target: 1.2, unit: 'x' },
      runs: [tls, embedded],
      note:
        `${roundsNote(rounds.map((each) => each.value))}; the hop is split over two processes: neither side saturates one core at one request in flight\n` +
        `    the floor's round as one HTTP/1.1 call shaped like the export's, bare node:https at both ends and no key server: ${httpsMs.toFixed(3)} ms, ${(httpsMs / floorMs).toFixed(2)}x the floor\n` +
        `    the floor's round in place (bare Koa making one per request, less bare Koa, one in flight from the same load generator, in the same rounds): ` +
        `${inPlaceMs.toFixed(3)} ms, ${(inPlaceMs / floorMs).toFixed(2)}x the floor in the median round; the hop is ${ratios(toInPlace)}x it by round\n` +
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
 * The floor's round put where the hop is: bare Koa that makes one round on a floor of its own before each answer,
 * and bare Koa answering at once, each at one request in flight from the load generator. The first
 * less the second is the floor in the hop's place: a third process, and a server whose thread also
 * serves HTTP. `check` refuses a measure in which a round did not resume.
 */
async function startFloorInPlace(client: { readonly cert: string; readonly key: string }) {
  const floor = await startTlsFloor(client);
  await floor.round(); // the one full handshake: every round after it resumes
  let fullHandshakes = 0;
  const plain = await startBareKoa({ ok: true });
  const rounding = await startBareKoa({ ok: true }, async () => {
    if (!(await floor.round())) fullHandshakes++;
    return true;
  });
  return {
    plain: { url: plain.url, connections: 1 } satisfies Job,
    rounding: { url: rounding.url, connections: 1 } satisfies Job,
    check(...rows: Measured[]) {
      for (const row of rows) if (row.non2xx + row.errors > 0) throw new Error(`${row.name}: requests failed`);
      if (fullHandshakes > 0) throw new Error(`${fullHandshakes} rounds of the floor in place made a full handshake`);
    },
    close() {
      plain.close();
      rounding.close();
      floor.close();
    },
  };
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
  const warming = performance.now();
  while (performance.now() - warming < FLOOR_WARM_UP_SECONDS * 1000) await once();
  const started = performance.now();
  let rounds = 0;
  while (performance.now() - started < seconds * 1000) {
    await once();
    rounds++;
  }
  await keyServer.close();
  return (performance.now() - started) / rounds;
}
