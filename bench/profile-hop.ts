import { createECDH } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createGateway } from '../src/app/create-gateway.js';
import { clientConfig, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { ADMIN_PASSWORD } from './bench-run.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';
import { LoadClient } from './load-client.js';

/**
 * Profiles the gateway of the daemon-hop row (export through a `keygate keyserver` over TLS 1.3,
 * resumed, one request in flight): `tsx bench/profile-hop.ts [seconds] [out.cpuprofile]`.
 */
const [seconds = '5', out = 'hop.cpuprofile'] = process.argv.slice(2);
const daemon = await spawnDaemon(untilKillAll, ['--data', ':memory:', '--port', '0', '--admin-password', ADMIN_PASSWORD]);
const keyServer = { kind: 'tls' as const, url: daemon.url, fingerprint: daemon.fingerprint, resumeSessions: true, ...(await clientConfig()) };
const gateway = await createGateway({ keyServer, ...DEPLOYED }, { logger: deployedLogger() });
const { url } = await gateway.listen(0, '127.0.0.1');
const json = { 'content-type': 'application/json' };
const login = await fetch(`${url}/login`, { method: 'POST', headers: json, body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD }) });
const headers = { ...json, 'X-Session': ((await login.json()) as { sessionId: string }).sessionId };
const ttag = ((await (await fetch(`${url}/keys`, { method: 'POST', headers })).json()) as { ttag: string }).ttag;
const client = createECDH('prime256v1');
client.generateKeys();
const job = {
  url: `${url}/keys/export`,
  method: 'POST' as const,
  headers,
  body: JSON.stringify({ ttag, clientPubKey: client.getPublicKey('base64') }),
  connections: 1,
  durationSeconds: Number(seconds),
};
const load = await LoadClient.start();
await load.measure('warm-up', { ...job, durationSeconds: 1 });
const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
await inspector.post('Profiler.start');
const cpu = process.cpuUsage();
const row = await load.measure('hop', job);
const { user, system } = process.cpuUsage(cpu);
const { profile } = await inspector.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
const requests = row.requestsPerSecond * job.durationSeconds;
process.stdout.write(
  `hop: ${row.requestsPerSecond.toFixed(0)} req/s, mean ${row.meanMs.toFixed(2)} ms, gateway busy ${(row.serverBusy * 100).toFixed(0)}%, gateway CPU ${((user + system) / requests).toFixed(0)} us/req\n`,
);
load.stop();
await gateway.close();
await daemon.stop();
await killAllDaemons();
process.exit(0);
