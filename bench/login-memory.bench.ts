import { createGateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, loginJob } from './deployed.js';
import { settledMemory, signed } from './live-sessions.js';
import { type LoadClient, type Measured, noFailures } from './load-client.js';
import type { Figure } from './table.js';

/** Logins in flight: below the throttle's places per name and address (docs/spec.md §10 item 2), so none is refused. */
const IN_FLIGHT = 4;
/** The most bytes one live session made by a password login may keep in the gateway's process. */
const GOAL_BYTES = 1200;

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
 * Bytes per live session through the sign-in path: N root `POST /login` (docs/spec.md §2.4) on a
 * gateway as a library user gets it by default (embedded key server, memory stores and audit log,
 * metrics on), each leaving a live session, with whatever else a login keeps (the key server's token,
 * throttle counters, indexes, audit entries, metrics). RSS and heap+external after full collections,
 * before and after, divided by the sessions made; the larger growth is the figure, as the session
 * store's row takes it. A warm-up of logins first, so that compiled code and first-use tables are not
 * counted.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const count = load.settings.liveSessions;
  const gateway = await createGateway(
    // The logins are one principal's: the per-principal cap (docs/spec.md §2.4 item 2) is lifted so it refuses none.
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, maxSessionsPerPrincipal: 100_000_000, ...DEPLOYED },
    { logger: deployedLogger() },
  );
  try {
    const { url } = await gateway.listen(0, '127.0.0.1');
    noFailures(await logins(load, url, 'POST /login (warm-up)', Math.max(200, Math.round(count / 10))));
    const before = await liveSessions(url);
    const baseline = settledMemory();
    const run = await logins(load, url, `POST /login x ${count}`, count);
    const after = settledMemory();
    noFailures(run);
    const made = (await liveSessions(url)) - before;
    if (made !== count) throw new Error(`${count} logins left ${made} live sessions`);
    const rssPer = (after.rss - baseline.rss) / made;
    const heldPer = (after.held - baseline.held) / made;
    const perSession = Math.max(rssPer, heldPer);
    return [
      {
        figure: 'bytes per session, through POST /login',
        measured: `${perSession.toFixed(0)} B`,
        floor: `RSS ${signed(rssPer)} B, heap+external ${signed(heldPer)} B`,
        value: perSession,
        goal: { op: '<=', target: GOAL_BYTES, unit: ' B' },
        runs: [run],
        note: `${made} root logins, ${IN_FLIGHT} in flight, on a gateway of default settings (embedded key server, memory stores and audit, metrics on), after full GCs`,
      },
    ];
  } finally {
    await gateway.close();
  }
}
