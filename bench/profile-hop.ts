import { createGateway } from '../src/app/create-gateway.js';
import { clientConfig, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { ADMIN_PASSWORD } from './bench-run.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';
import { LoadClient } from './load-client.js';
import { profiledRun } from './cpu-profile.js';
import { exportJob } from './daemon-hop.figures.js';

/**
 * Profiles the gateway of the daemon-hop row (export through a `keygate keyserver` over TLS 1.3,
 * resumed, one request in flight): `tsx bench/profile-hop.ts [seconds] [out.cpuprofile]`.
 */
const [seconds = '5', out = 'hop.cpuprofile'] = process.argv.slice(2);
const daemon = await spawnDaemon(untilKillAll, ['--data', ':memory:', '--port', '0', '--admin-password', ADMIN_PASSWORD]);
const keyServer = { kind: 'tls' as const, url: daemon.url, fingerprint: daemon.fingerprint, resumeSessions: true, ...(await clientConfig()) };
const gateway = await createGateway({ keyServer, ...DEPLOYED }, { logger: deployedLogger() });
const { url } = await gateway.listen(0, '127.0.0.1');
const load = await LoadClient.start();
const { row, cpuUsPerRequest } = await profiledRun(
  load,
  'hop',
  { method: 'GET', headers: {}, ...(await exportJob(url)), connections: 1, durationSeconds: Number(seconds) },
  out,
);
process.stdout.write(
  `hop: ${row.requestsPerSecond.toFixed(0)} req/s, mean ${row.meanMs.toFixed(2)} ms, gateway busy ${(row.serverBusy * 100).toFixed(0)}%, gateway CPU ${cpuUsPerRequest.toFixed(0)} us/req\n`,
);
load.stop();
await gateway.close();
await daemon.stop();
await killAllDaemons();
process.exit(0);
