import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';
import { createGateway } from '../src/app/create-gateway.js';
import { LoadClient } from './load-client.js';
import { profiledRun } from './cpu-profile.js';
import { startBareKoa } from './floors.js';
import { ADMIN_PASSWORD, boundSession, exportRequest, signIn } from './bench-run.js';
import type { LoadJob } from './load-generator.js';

/**
 * Loads one gateway route for a few seconds and records a CPU profile of the gateway during the
 * load only (start-up excluded), as `node --cpu-prof` would write it:
 *   tsx bench/profile.ts health|koa|keys|export|session|bound|login [seconds] [out.cpuprofile]
 * The load generator runs in a process of its own and is not in the profile; `bench/profile-top.ts`
 * prints the top frames. The gateway logs and counts as deployed (`deployed-logging.ts`);
 * `KEYGATE_PROFILE_QUIET=1` keeps its lines in memory with metrics off instead.
 */
const [target = 'health', seconds = '5', out = `${target}.cpuprofile`] = process.argv.slice(2);
const quiet = process.env.KEYGATE_PROFILE_QUIET === '1';
const gateway = await createGateway(
  {
    keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD },
    replayCacheSize: 2_000_000,
    maxSessionsPerPrincipal: 100_000_000,
    ...(quiet ? {} : DEPLOYED),
  },
  { logger: quiet ? new MemoryLogger() : deployedLogger() },
);
const { url } = await gateway.listen(0, '127.0.0.1');
const session = await signIn(url);
const { headers: xSession, body: exportBody, ttag } = await exportRequest(url, session);
const bound = await boundSession(url, session, ttag);
const koa = await startBareKoa({ ok: true, ksFingerprint: 'f'.repeat(64), sessions: 0 });
const base = { headers: {}, method: 'GET' as const, connections: 50, durationSeconds: Number(seconds) };
const jobs: Record<string, LoadJob> = {
  health: { ...base, url: `${url}/health` },
  koa: { ...base, url: koa.url },
  keys: { ...base, url: `${url}/keys`, method: 'POST', headers: xSession },
  export: { ...base, url: `${url}/keys/export`, method: 'POST', headers: xSession, body: exportBody },
  session: { ...base, url: `${url}/api/session`, headers: { Authorization: `Bearer ${session}` } },
  bound: {
    ...base,
    url: `${url}/api/session`,
    headers: { Authorization: `Bearer ${bound.sessionId}` },
    proofs: { privateJwk: bound.privateJwk, publicJwk: bound.publicJwk, htu: `${url}/api/session`, htm: 'GET', credential: bound.sessionId },
  },
  login: {
    ...base,
    url: `${url}/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD }),
    connections: 32,
  },
};
const load = await LoadClient.start();
const { row, cpuUsPerRequest } = await profiledRun(load, target, jobs[target]!, out);
process.stdout.write(
  `${target}: ${row.requestsPerSecond.toFixed(0)} req/s, server busy ${(row.serverBusy * 100).toFixed(0)}%, ` +
    `server CPU ${cpuUsPerRequest.toFixed(1)} us/req, ${row.errors + row.non2xx} failed\n`,
);
load.stop();
koa.close();
await gateway.close();
process.exit(0);
