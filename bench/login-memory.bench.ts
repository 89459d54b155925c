import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv } from '../src/app/config/from-env.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, loginJob } from './deployed.js';
import { settledMemory, signed } from './live-sessions.js';
import { type LoadClient, type Measured, noFailures } from './load-client.js';
import type { Figure } from './table.js';

/** Logins in flight: below the throttle's places per name and address (docs/spec.md §10 item 2), so none is refused. */
const IN_FLIGHT = 4;
/** The most bytes one live session made by a password login may keep in the gateway's process. */
const GOAL_BYTES = 1200;
/** The logins are one principal's: the per-principal cap (docs/spec.md §2.4 item 2) is lifted so it refuses none. */
const NO_CAP = 100_000_000;

/** The live sessions the gateway reports (`/health` `sessions`, docs/spec.md §2.4 item 6). */
async function liveSessions(url: string): Promise<number> {
  const answer = await fetch(`${url}/health`);
  if (answer.status !== 200) throw new Error(`/health: ${answer.status}`);
  return ((await answer.json()) as { sessions: number }).sessions;
}

/** `amount` root logins of the bench's admin, sent by the load generator (nothing of the client stays in this process). */
function logins(load: LoadClient, url: string, name: string, amount: number): Promise<Measured> {
  return load.measure(name, load.full({ ...loginJob(url), connections: IN_FLIGHT, amount }));
}

/**
 * `keygate serve` as an operator runs it: the configuration read from the environment as the CLI reads
 * it, with nothing set but a fresh data directory (embedded key server on SQLite, SQLite audit, metrics
 * on), the bench's admin password and the per-principal cap lifted.
 */
async function servedGateway(dataDir: string): Promise<Gateway> {
  const env = {
    TE_GATEWAY_DATA_DIR: dataDir,
    TE_KEYSERVER_ADMIN_PASSWORD: ADMIN_PASSWORD,
    TE_GATEWAY_MAX_SESSIONS_PER_PRINCIPAL: String(NO_CAP),
  };
  return createGateway(configFromEnv(env), { logger: deployedLogger() });
}

/** A gateway as a library user gets it by default: embedded key server, memory stores and audit log, metrics on. */
function libraryGateway(): Promise<Gateway> {
  return createGateway(
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, maxSessionsPerPrincipal: NO_CAP, ...DEPLOYED },
    { logger: deployedLogger() },
  );
}

/**
 * Bytes per live session through the sign-in path on `gateway`: N root `POST /login`
 * (docs/spec.md §2.4), each leaving a live session, with whatever else a login keeps (the key server's
 * token, throttle counters, indexes, audit entries, metrics, the SQLite page caches). RSS and heap+external
 * after full collections, before and after, divided by the sessions made; the larger growth is the
 * figure, as the session store's row takes it. A warm-up of logins first, so that compiled code and
 * first-use tables are not counted.
 */
async function bytesPerSession(load: LoadClient, gateway: Gateway, figure: string, note: string): Promise<Figure> {
  const count = load.settings.liveSessions;
  const { url } = await gateway.listen(0, '127.0.0.1');
  noFailures(await logins(load, url, `${figure} (warm-up)`, Math.max(200, Math.round(count / 10))));
  const before = await liveSessions(url);
  const baseline = settledMemory();
  const run = await logins(load, url, `${figure}: POST /login x ${count}`, count);
  const after = settledMemory();
  noFailures(run);
  const made = (await liveSessions(url)) - before;
  if (made !== count) throw new Error(`${count} logins left ${made} live sessions`);
  const rssPer = (after.rss - baseline.rss) / made;
  const heldPer = (after.held - baseline.held) / made;
  const perSession = Math.max(rssPer, heldPer);
  return {
    figure,
    measured: `${perSession.toFixed(0)} B`,
    floor: `RSS ${signed(rssPer)} B, heap+external ${signed(heldPer)} B`,
    value: perSession,
    goal: { op: '<=', target: GOAL_BYTES, unit: ' B' },
    runs: [run],
    note: `${made} root logins, ${IN_FLIGHT} in flight, ${note}, after full GCs`,
  };
}

/** The two gateways, one after the other: `keygate serve`'s (what an operator runs) first, then the library's default. */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-bench-login-memory-'));
  const rows: Figure[] = [];
  try {
    const served = await servedGateway(dataDir);
    try {
      const note = 'on `keygate serve` of default settings (embedded key server on SQLite, SQLite audit, metrics on)';
      rows.push(await bytesPerSession(load, served, 'bytes per session, through POST /login, keygate serve', note));
    } finally {
      await served.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const library = await libraryGateway();
  try {
    const note = 'on a library gateway of default settings (embedded key server, memory stores and audit, metrics on)';
    rows.push(await bytesPerSession(load, library, 'bytes per session, through POST /login, memory stores', note));
  } finally {
    await library.close();
  }
  return rows;
}
