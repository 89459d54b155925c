import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname } from 'node:path';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { clientConfig, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { ADMIN_PASSWORD, boundSession, DEPLOYED, deployedLogger, exportJob, exportRequest, loginJob, signIn } from './deployed.js';
import { startBareKoa } from './floors.js';
import type { Job, LoadClient } from './load-client.js';
import { benchDaemon, localIssuer, signInTarget } from './workload-login.bench.js';

/** The loads a profile can be recorded under: the rows' requests, at the rows' connections. */
export const PROFILES = [
  'health',
  'koa',
  'keys',
  'export',
  'session',
  'bound',
  'login',
  'hop',
  'jwt',
  'password',
  'jwt-hop',
  'password-hop',
] as const;
export type ProfileName = (typeof PROFILES)[number];

/** A gateway serving one profile's load, and how to close what it started. */
interface Target {
  readonly job: Job;
  close(): Promise<void>;
}

type SignInProfile = 'jwt' | 'password' | 'jwt-hop' | 'password-hop';
type RouteProfile = Exclude<ProfileName, 'hop' | SignInProfile>;

/**
 * The gateway of the workload-login rows (bench/workload-login.bench.ts), embedded or over a daemon
 * (`-hop`), under its workload sign-ins or its password sign-ins on `/api/session`.
 */
async function signInProfileTarget(name: SignInProfile): Promise<Target> {
  const issuer = await localIssuer();
  const daemon = name.endsWith('-hop') ? await benchDaemon() : undefined;
  const target = await signInTarget(issuer, daemon?.keyServer ?? { kind: 'embedded', adminPassword: ADMIN_PASSWORD });
  return {
    job: name.startsWith('jwt') ? target.jwt : target.password,
    close: async () => (await target.close(), await daemon?.close(), await issuer.close()),
  };
}

/** The embedded gateway as the gateway rows run it, and the route's request. */
async function routeTarget(name: RouteProfile): Promise<Target> {
  const gateway = await createGateway(
    {
      keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD },
      replayCacheSize: 2_000_000,
      maxSessionsPerPrincipal: 100_000_000,
      ...DEPLOYED,
    },
    { logger: deployedLogger() },
  );
  const { url } = await gateway.listen(0, '127.0.0.1');
  const session = await signIn(url);
  const { headers: xSession, body, ttag } = await exportRequest(url, session);
  const bound = await boundSession(url, session, ttag, `${url}/api/session`);
  const koa = await startBareKoa({ ok: true, ksFingerprint: gateway.ksFingerprint, sessions: 0 });
  const jobs: Record<typeof name, Job> = {
    health: { url: `${url}/health` },
    koa: { url: koa.url },
    keys: { url: `${url}/keys`, method: 'POST', headers: xSession },
    export: { url: `${url}/keys/export`, method: 'POST', headers: xSession, body },
    session: { url: `${url}/api/session`, headers: { Authorization: `Bearer ${session}` } },
    bound: { url: `${url}/api/session`, headers: { Authorization: `Bearer ${bound.sessionId}` }, proofs: bound.proofs },
    login: { ...loginJob(url), connections: 32 },
  };
  return { job: jobs[name], close: async () => (koa.close(), await gateway.close()) };
}

/** The gateway of the daemon-hop row: export through a `keygate keyserver` over TLS 1.3, resumed, one request in flight. */
async function hopTarget(): Promise<Target> {
  const daemon = await spawnDaemon(untilKillAll, ['--data', ':memory:', '--port', '0', '--admin-password', ADMIN_PASSWORD]);
  const keyServer = {
    kind: 'tls' as const,
    url: daemon.url,
    fingerprint: daemon.fingerprint,
    resumeSessions: true,
    ...(await clientConfig()),
  };
  const gateway: Gateway = await createGateway({ keyServer, ...DEPLOYED }, { logger: deployedLogger() });
  const { url } = await gateway.listen(0, '127.0.0.1');
  return { job: await exportJob(url), close: async () => (await gateway.close(), await daemon.stop(), await killAllDaemons()) };
}

/**
 * Loads one profile's requests after a warm-up and records this process's CPU profile during the
 * measured run only (start-up excluded; the load generator is another process and not in it), written
 * to `out` as `node --cpu-prof` would write it; then prints the run and the profile's report.
 */
export async function recordProfile(load: LoadClient, name: ProfileName, out: string): Promise<void> {
  const target =
    name === 'hop'
      ? await hopTarget()
      : name === 'jwt' || name === 'password' || name === 'jwt-hop' || name === 'password-hop'
        ? await signInProfileTarget(name)
        : await routeTarget(name);
  try {
    const job = load.full(target.job);
    await load.warmUp(name, target.job);
    const inspector = new Session();
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
    await inspector.post('Profiler.start');
    const cpu = process.cpuUsage();
    const row = await load.measure(name, job);
    const { user, system } = process.cpuUsage(cpu);
    const { profile } = await inspector.post('Profiler.stop');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(profile));
    process.stdout.write(
      `${name}: ${row.requestsPerSecond.toFixed(0)} req/s, mean ${row.meanMs.toFixed(2)} ms, server busy ${(row.serverBusy * 100).toFixed(0)}%, ` +
        `server CPU ${((user + system) / row.total).toFixed(1)} us/req, ${row.errors + row.non2xx} failed; profile: ${out}\n`,
    );
  } finally {
    await target.close();
  }
  printProfileReport(out);
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

/**
 * What a `.cpuprofile` says, in two short tables: the frames with the most self time, and the inclusive
 * time of each function of our own code and of each dependency (a frame counts once per sample however
 * deep it recurs; idle samples left out).
 */
export function printProfileReport(file: string, count = 25): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id)!;
    const { functionName, url, lineNumber } = leaf.callFrame;
    const where = url.replace(/^.*\/(node_modules|src|bench)\//, '$1/').replace(/^node:/, '');
    add(self, `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`, delta);
    total += delta;
    if (functionName === '(idle)' || (functionName === 'dispatch' && !url)) return;
    busy += delta;
    const seen = new Set<string>();
    for (let node: ProfileNode | undefined = leaf; node; node = byId.get(parent.get(node.id) ?? -1)) {
      const name = ownerOf(node);
      if (name !== undefined && !seen.has(name)) seen.add(name), add(inclusive, name, delta);
    }
  });
  const print = (title: string, times: Map<string, number>, of: number) => {
    process.stdout.write(`\n${title}\n`);
    for (const [name, micros] of [...times].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      process.stdout.write(`${((micros / of) * 100).toFixed(1).padStart(5)}%  ${name}\n`);
    }
  };
  print('self time, top frames (share of all samples)', self, total);
  print('inclusive time, our functions and each dependency (share of busy samples)', inclusive, busy);
}

const add = (times: Map<string, number>, name: string, micros: number) => times.set(name, (times.get(name) ?? 0) + micros);

/** A frame of our code (`name src/...`), a dependency (`[package]`), or neither (Node's own). */
function ownerOf(node: ProfileNode): string | undefined {
  const { url, functionName } = node.callFrame;
  if (url.includes('/src/')) return `${functionName || '(anonymous)'} ${url.replace(/^.*\/src\//, 'src/')}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return dependency ? `[${dependency[1]}]` : undefined;
}
