import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TlsKeyServer } from '../src/adapters/key-server/tls-key-server.js';
import { withoutPeerCertificate } from '../src/adapters/key-server/tls-session.js';
import { CryptoRandom } from '../src/adapters/random/crypto-random.js';
import type { GatewayConfigInput } from '../src/app/config/config.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { Secret } from '../src/domain/secret/secret.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { clientConfig, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, exportJob } from './deployed.js';
import { floorRoundMs, msPerRound, startBareKoa, startTlsFloor } from './floors.js';
import { type Job, type LoadClient, type Measured, medianRound, noFailures } from './load-client.js';
import { type Figure, ratios, roundsNote } from './table.js';

/**
 * Warm-up of the hop's export rows (the settings' `slowWarmUpSeconds`, 10). At one request in flight
 * the TLS row serves some 300 requests a second: after one second much of the gateway's path still
 * runs unoptimized (V8 optimizes a function once it has run often enough), and the row measured the
 * JIT, not the hop. On this machine it settles after about ten seconds (3.3-3.8 ms per TLS export
 * after 1 s, 2.4-2.5 ms after 10 s or 20 s); the embedded row reads the same either way. The floors'
 * code is small and gets a shorter warm-up.
 */
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

/** Seconds of each round's measures made in this process (the floors' rounds, the export at the key-server port). */
const PORT_SECONDS = 1;

/**
 * The daemon hop (one row): `POST /keys/export` through a `keygate keyserver` process over TLS 1.3 with resumed
 * sessions, less the same export with the key server embedded, one request in flight; beside a bare
 * Node TLS 1.3 resumed connect + one request + close between two processes of this machine, mutual
 * like the hop (the same client certificate, pinned by the server).
 *
 * Both gateways keep the key server's state as a deployment does, in a sealed SQLite file (the daemon
 * beside its data file, the embedded engine in its data directory): with the embedded engine in memory,
 * the difference of the two rows would also hold the SQLite store's cost of an export (some 60 us
 * here), which is no part of the hop.
 *
 * Measured in the settings' rounds, and the median round shown: with three processes on two shared cores, one
 * run of the TLS row took 2.2 ms per request and the next one 3.5 ms, and a single run would decide the
 * figure. Every measure a line of the note compares sits in each round, beside the floor it is compared
 * with: the floor's round; the same with the session kept as the gateway keeps it; the floor in place;
 * the embedded and TLS rows; the floor's round again, beside the export, the health call and `whoami`
 * at the key-server port and the floor's round as one HTTPS call. A measure made minutes away from its
 * floor compares two moments of the machine, not two pieces of work.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const { rounds: count, slowWarmUpSeconds } = load.settings;
  const floorWarmUp = Math.min(FLOOR_WARM_UP_SECONDS, slowWarmUpSeconds);
  const data = mkdtempSync(join(tmpdir(), 'keygate-bench-hop-'));
  const daemon = await spawnDaemon(untilKillAll, ['--data', join(data, 'daemon.db'), '--port', '0', '--admin-password', ADMIN_PASSWORD]);
  const gateways: Gateway[] = [];
  const closing: (() => void | Promise<void>)[] = [];
  try {
    const client = await clientConfig();
    const tlsClient = { cert: client.clientCert, key: client.clientKey };
    const embeddedJob = await exportGateway({ kind: 'embedded', adminPassword: ADMIN_PASSWORD, dataDir: join(data, 'embedded') }, gateways);
    const tlsJob = await exportGateway(
      { kind: 'tls', url: daemon.url, fingerprint: daemon.fingerprint, resumeSessions: true, ...client },
      gateways,
    );
    const floor = await startTlsFloor(tlsClient);
    closing.push(() => floor.close());
    const https = await startTlsFloor(tlsClient, 'https');
    closing.push(() => https.close());
    const lean = await startTlsFloor(tlsClient, 'line', withoutPeerCertificate);
    closing.push(() => lean.close());
    const inPlace = await startFloorInPlace(tlsClient);
    closing.push(() => inPlace.close());
    const atPort = await startPortExport({ url: daemon.url, fingerprint: daemon.fingerprint, ...client });
    closing.push(() => atPort.close());
    // The one full handshake of each floor: every round after it resumes.
    for (const each of [floor, https, lean]) await each.round();
    for (const each of [floor, https, lean]) await floorRoundMs(each, floorWarmUp);
    for (const call of ['export', 'health', 'whoami'] as const) await atPort.ms(floorWarmUp, call);
    for (const job of [inPlace.plain, inPlace.rounding]) await load.warmUp('floor in place', job, floorWarmUp);
    for (const job of [embeddedJob, tlsJob]) await load.warmUp('export, 1 in flight', job, slowWarmUpSeconds);
    const rounds: HopRound[] = [];
    for (let round = 0; round < count; round++) {
      const floorMs = await floorRoundMs(floor, 2);
      const leanMs = await floorRoundMs(lean, 2);
      const bare = await load.run('bare Koa, 1 in flight', inPlace.plain);
      const rounding = await load.run('bare Koa making one floor round per request, 1 in flight', inPlace.rounding);
      inPlace.check(bare, rounding);
      const embedded = await load.run('export, embedded, 1 in flight', embeddedJob);
      // `run` without its measure: the daemon's CPU is read around the measure alone, not its warm-up.
      await load.warmUp('export, TLS daemon', tlsJob, 1);
      const daemonCpu = processCpuMicros(daemon.child.pid);
      const tls = await load.measure('export, TLS daemon (resumed), 1 in flight', load.full(tlsJob));
      const daemonUsPerRequest = processCpuMicros(daemon.child.pid) - daemonCpu;
      const portFloorMs = await floorRoundMs(floor, PORT_SECONDS);
      const portMs = await atPort.ms(PORT_SECONDS);
      const healthMs = await atPort.ms(PORT_SECONDS, 'health');
      const whoamiMs = await atPort.ms(PORT_SECONDS, 'whoami');
      const httpsMs = await floorRoundMs(https, PORT_SECONDS);
      rounds.push({
        floorMs,
        leanMs,
        inPlaceMs: perRequestMs(rounding) - perRequestMs(bare),
        bare,
        rounding,
        embedded,
        tls,
        daemonUsPerRequest: Number.isNaN(daemonUsPerRequest) ? undefined : daemonUsPerRequest / tls.total,
        port: portMs / portFloorMs,
        portHealth: healthMs / portFloorMs,
        portWhoami: whoamiMs / portFloorMs,
        https: httpsMs / portFloorMs,
        value: (perRequestMs(tls) - perRequestMs(embedded)) / floorMs,
      });
    }
    const median = medianRound(rounds);
    const { floorMs, inPlaceMs, embedded, tls } = median;
    const hopMs = perRequestMs(tls) - perRequestMs(embedded);
    const hopOf = (each: HopRound) => perRequestMs(each.tls) - perRequestMs(each.embedded);
    const toInPlace = rounds.map((each) => hopOf(each) / each.inPlaceMs);
    const toLean = rounds.map((each) => hopOf(each) / each.leanMs);
    /** The median of one ratio over the rounds, and every round's, as a note line shows them. */
    const byRound = (values: number[]) =>
      `${medianRound(values.map((value) => ({ value }))).value.toFixed(2)}x it (rounds ${ratios(values)})`;
    const daemonCpuNote =
      median.daemonUsPerRequest === undefined
        ? ''
        : `; the daemon used ${median.daemonUsPerRequest.toFixed(0)} us of CPU per request in the TLS run`;
    const figure: Figure = {
      figure: 'export through the daemon, TLS hop',
      measured: `${hopMs.toFixed(3)} ms/request (${perRequestMs(tls).toFixed(3)} - ${perRequestMs(embedded).toFixed(3)})`,
      floor: `bare mutual TLS 1.3 resumed round: ${floorMs.toFixed(3)} ms`,
      value: median.value,
      goal: { op: '<=', target: 1.2, unit: 'x' },
      runs: [tls, embedded, median.rounding, median.bare],
      note:
        `${roundsNote(rounds.map((each) => each.value))}; the hop is split over two processes: neither side saturates one core at one request in flight${daemonCpuNote}\n` +
        `    both gateways keep the key server's state in a sealed SQLite file, the daemon beside its data file, the embedded engine in its data directory\n` +
        `    the floor's round with each kept session holding no certificate, as the gateway's dialer keeps it (withoutPeerCertificate; the floor above keeps ` +
        `the ticket as Node gives it): ${median.leanMs.toFixed(3)} ms, ${(median.leanMs / floorMs).toFixed(2)}x the floor in the median round; the hop is ${byRound(toLean)}\n` +
        `    the floor's round in place (bare Koa making one per request, less bare Koa, one in flight from the same load generator): ` +
        `${inPlaceMs.toFixed(3)} ms, ${(inPlaceMs / floorMs).toFixed(2)}x the floor in the median round; the hop is ${byRound(toInPlace)}\n` +
        `    the same export at the key-server port, without the gateway's HTTP side or the load generator (connect, export, close on TlsKeyServer, ` +
        `one after another), beside the floor's round in the same round: ${byRound(rounds.map((each) => each.port))}\n` +
        `    the same way, the daemon's health call (the connection and the framed call, no engine work): ${byRound(rounds.map((each) => each.portHealth))}; ` +
        `whoami (that, and the token check every operation makes): ${byRound(rounds.map((each) => each.portWhoami))}\n` +
        `    the floor's round as one HTTP/1.1 call shaped like the export's, bare node:https at both ends and no key server, beside the floor's round: ` +
        byRound(rounds.map((each) => each.https)),
    };
    return [figure];
  } finally {
    for (const close of closing.reverse()) await close();
    for (const gateway of gateways) await gateway.close();
    await daemon.stop();
    await killAllDaemons();
    rmSync(data, { recursive: true, force: true });
  }
}

interface HopRound {
  readonly floorMs: number;
  /** The floor's round with its kept sessions as the gateway's dialer keeps them (no certificate). */
  readonly leanMs: number;
  readonly inPlaceMs: number;
  readonly bare: Measured;
  readonly rounding: Measured;
  readonly embedded: Measured;
  readonly tls: Measured;
  /** The daemon's CPU per request of the TLS run, where /proc tells it. */
  readonly daemonUsPerRequest: number | undefined;
  /** The export at the key-server port, and the HTTPS floor, over the floor's round measured beside them. */
  readonly port: number;
  /** The daemon's health call and `whoami` at the key-server port, over the same floor's round. */
  readonly portHealth: number;
  readonly portWhoami: number;
  readonly https: number;
  readonly value: number;
}

/** Microseconds of CPU (user and system) another process has used, from /proc; NaN where there is no /proc. */
function processCpuMicros(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks of 1/100 s (USER_HZ).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
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
      noFailures(...rows);
      if (fullHandshakes > 0) throw new Error(`${fullHandshakes} rounds of the floor in place made a full handshake`);
    },
    close() {
      plain.close();
      rounding.close();
      floor.close();
    },
  };
}

/** The calls made at the key-server port, from the cheapest to the hop's: each its own connect, call and close. */
type PortCall = 'health' | 'whoami' | 'export';

/**
 * The export as the gateway's key-server adapter makes it, timed in this process: a resumed connect,
 * one export call and the close on `TlsKeyServer`, one after another. It leaves out the gateway's HTTP
 * side and the third process (the load generator) the hop row has, so it shows how much of the hop the
 * key-server protocol itself costs. Two cheaper calls made the same way split that cost: the daemon's
 * health call (the connection and the framed call, no engine work) and `whoami` (the same, plus the
 * token check every operation makes). `ms(seconds, call)`: milliseconds per call over that many seconds.
 */
async function startPortExport(daemon: { url: string; fingerprint: string; clientCert: string; clientKey: string }) {
  const keyServer = await TlsKeyServer.start({ ...daemon, timeoutMs: 5_000, resumeSessions: true }, new CryptoRandom());
  const { token } = await keyServer.login('admin', new Secret(ADMIN_PASSWORD));
  const first = await keyServer.connect(token);
  const { ttag } = await first.call('generateKey', { keyLen: 16 });
  await first.close();
  const calls: Record<PortCall, () => Promise<void>> = {
    health: () => keyServer.ping(),
    whoami: async () => {
      const connection = await keyServer.connect(token);
      try {
        await connection.call('whoami', {});
      } finally {
        await connection.close();
      }
    },
    export: async () => {
      const connection = await keyServer.connect(token);
      try {
        (await connection.call('exportKey', { ttag })).key.fill(0);
      } finally {
        await connection.close();
      }
    },
  };
  return {
    ms: (seconds: number, call: PortCall = 'export') => msPerRound(seconds, calls[call]),
    close: () => keyServer.close(),
  };
}
