import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import type { GatewayConfigInput } from '../src/app/config/config.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { clientConfig, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { measure, printTable, type BenchResult } from './support.js';
import { ADMIN_PASSWORD, exportRequest, signIn } from './bench-run.js';

/** A gateway on loopback, signed in as admin, with one key to export: the export request to repeat. */
async function exportTarget(name: string, keyServer: GatewayConfigInput['keyServer']): Promise<{ gateway: Gateway; run(): Promise<BenchResult> }> {
  const gateway = await createGateway({ keyServer }, { logger: new MemoryLogger() });
  const { url } = await gateway.listen(0, '127.0.0.1');
  const { headers, body } = await exportRequest(url, await signIn(url));
  return { gateway, run: () => measure({ name, url: `${url}/keys/export`, method: 'POST', headers, body }) };
}

/**
 * `POST /keys/export` with the key server in-process, and through a `keygate keyserver` process over
 * TLS 1.3 with and without session resumption, in one run. The cost of the TLS hop per request is the
 * difference in mean latency from the embedded row.
 */
export async function benchKeyServer(): Promise<void> {
  const daemon = await spawnDaemon(untilKillAll, ['--data', ':memory:', '--port', '0', '--admin-password', ADMIN_PASSWORD]);
  const tls = { kind: 'tls' as const, url: daemon.url, fingerprint: daemon.fingerprint, ...(await clientConfig()) };
  const targets = [
    await exportTarget('export, embedded key server', { kind: 'embedded', adminPassword: ADMIN_PASSWORD }),
    await exportTarget('export, tls daemon, resumed sessions', { ...tls, resumeSessions: true }),
    await exportTarget('export, tls daemon, full handshakes', { ...tls, resumeSessions: false }),
  ];
  try {
    const rows: BenchResult[] = [];
    for (const target of targets) rows.push(await target.run());
    printTable('POST /keys/export: embedded key server vs key-server daemon over TLS', rows, rows[0]);
    const [embedded, ...hops] = rows;
    for (const row of hops) {
      process.stdout.write(
        `TLS hop cost (${row.name.replace('export, tls daemon, ', '')}): ${(row.meanMs - embedded!.meanMs).toFixed(2)} ms mean latency per request (${row.meanMs.toFixed(2)} vs ${embedded!.meanMs.toFixed(2)})\n`,
      );
    }
  } finally {
    for (const target of targets) await target.gateway.close();
    await daemon.stop();
    await killAllDaemons();
  }
}
