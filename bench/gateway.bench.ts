import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { createGateway } from '../src/app/create-gateway.js';
import { measure, printTable, type BenchResult } from './support.js';
import { ADMIN_PASSWORD, exportRequest, signIn } from './bench-run.js';
import { startBareKoa } from './floors.js';

/** The seven root operations against the embedded gateway, beside a bare Koa app, in one run. */
export async function benchGateway(): Promise<void> {
  const bare = await startBareKoa({ ok: true, sessions: 0 });
  const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD } }, { logger: new MemoryLogger() });
  const { url } = await gateway.listen(0, '127.0.0.1');
  const { headers: auth, body: exportBody } = await exportRequest(url, await signIn(url));

  const baseline = await measure({ name: 'bare Koa GET / (small JSON)', url: bare.url });
  const rows: BenchResult[] = [baseline];
  rows.push(await measure({ name: 'gateway GET /health', url: `${url}/health` }));
  rows.push(await measure({ name: 'gateway POST /keys', url: `${url}/keys`, method: 'POST', headers: auth }));
  rows.push(await measure({ name: 'gateway POST /keys/export', url: `${url}/keys/export`, method: 'POST', headers: auth, body: exportBody }));
  printTable('seven-operation surface, embedded key server', rows, baseline);
  bare.close();
  await gateway.close();
}
