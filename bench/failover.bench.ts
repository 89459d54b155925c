import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from '../src/app/config/config.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { clientConfig, type DaemonProcess, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, loginJob } from './deployed.js';
import { type LoadClient, medianRound } from './load-client.js';
import type { Figure } from './table.js';

/** The goal of failing over (docs/deployment.md): requests are served again within this much of a daemon's death. */
const GOAL_MS = 2_000;
/** Logins in flight while a daemon is killed: each one's answer is a sample of when service came back. */
const IN_FLIGHT = 2;
/** How long a revived daemon may take to be seen serving again (its back-off is 1 s). */
const REVIVE_MS = 30_000;

function daemonArgs(data: string, port = 0): string[] {
  return ['--data', data, '--port', String(port), '--admin-password', ADMIN_PASSWORD];
}

/** A stream of admin logins (the seven-operation `/login`), `IN_FLIGHT` at a time, until `stop()`: when each answered, and how. */
function loginStream(url: string) {
  const answers: { at: number; ok: boolean }[] = [];
  let running = true;
  const { method, headers, body } = loginJob(url);
  const login = async () => {
    while (running) {
      const reply = await fetch(`${url}/login`, { method, headers, body }).then(
        async (answer) => (await answer.arrayBuffer(), answer.ok),
        () => false,
      );
      answers.push({ at: performance.now(), ok: reply });
    }
  };
  const loops = Array.from({ length: IN_FLIGHT }, login);
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Polls `/api/health` until the first daemon is listed serving again. */
async function servingAgain(url: string): Promise<void> {
  const deadline = Date.now() + REVIVE_MS;
  while (Date.now() < deadline) {
    const health = (await (await fetch(`${url}/api/health`)).json()) as { keyServers?: { ok: boolean }[] };
    if (health.keyServers?.[0]?.ok === true) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the revived daemon was not seen serving again');
}

/**
 * The failover row: a gateway on two `keygate keyserver` daemons (each on a SQLite file of its own,
 * the same admin), a stream of logins through it, and the first daemon SIGKILLed: the time from the
 * kill to the first login answered after it (by the other daemon). The settings' rounds, the daemon revived
 * on its port between them and the gateway left to see it serving again, the median round shown. The
 * floor is the request timeout: a gateway that waited on the dead daemon would take at least that.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-failover-'));
  const firstData = join(dir, 'first.db');
  let first: DaemonProcess = await spawnDaemon(untilKillAll, daemonArgs(firstData));
  const second = await spawnDaemon(untilKillAll, daemonArgs(join(dir, 'second.db')));
  let gateway: Gateway | undefined;
  try {
    const keyServer = {
      kind: 'tls' as const,
      url: [first.url, second.url],
      fingerprint: [first.fingerprint, second.fingerprint],
      ...(await clientConfig()),
    };
    gateway = await createGateway({ keyServer, ...DEPLOYED }, { logger: deployedLogger() });
    const { url } = await gateway.listen(0, '127.0.0.1');
    const rounds: { value: number }[] = [];
    for (let round = 0; round < load.settings.rounds; round++) {
      const stream = loginStream(url);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const killed = performance.now();
      first.child.kill('SIGKILL');
      while (!stream.answers.some((answer) => answer.ok && answer.at > killed) && performance.now() - killed < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await stream.stop();
      const served = stream.answers.find((answer) => answer.ok && answer.at > killed);
      if (served === undefined) throw new Error('no login was served after the kill');
      rounds.push({ value: served.at - killed });
      await first.kill();
      first = await spawnDaemon(untilKillAll, daemonArgs(firstData, first.port));
      await servingAgain(url);
    }
    const median = medianRound(rounds).value;
    const timeoutMs = CONFIG_DEFAULTS.keyServerTimeoutMs;
    const figure: Figure = {
      figure: 'failover time (daemon SIGKILLed)',
      measured: `${median.toFixed(0)} ms to the next login served`,
      floor: `request timeout ${timeoutMs} ms`,
      value: median,
      goal: { op: '<=', target: GOAL_MS, unit: ' ms' },
      runs: [],
      note: `rounds: ${rounds.map((each) => each.value.toFixed(0)).join(', ')} ms; ${IN_FLIGHT} logins in flight; the median round is shown`,
    };
    return [figure];
  } finally {
    await gateway?.close({ drainMs: 1_000 });
    await killAllDaemons();
    rmSync(dir, { recursive: true, force: true });
  }
}
