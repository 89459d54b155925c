import { createECDH } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { createGateway } from '../src/app/create-gateway.js';
import { measure, printTable, type BenchResult } from './support.js';

/** A bare Koa app answering a small JSON body: the floor the gateway is compared with. */
async function startBareKoa(): Promise<{ url: string; close(): void }> {
  const app = new Koa();
  app.use(async (ctx) => {
    ctx.body = { ok: true, sessions: 0 };
  });
  const server = createServer(app.callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** Seed 000 operations against the embedded gateway, beside a bare Koa app, in one run. */
export async function benchGateway(): Promise<void> {
  const bare = await startBareKoa();
  const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: 'bench-admin-password' } }, { logger: new MemoryLogger() });
  const { url } = await gateway.listen(0, '127.0.0.1');
  const json = { 'content-type': 'application/json' };
  const login = await fetch(`${url}/login`, { method: 'POST', headers: json, body: JSON.stringify({ user: 'admin', password: 'bench-admin-password' }) });
  const session = ((await login.json()) as { sessionId: string }).sessionId;
  const auth = { ...json, 'X-Session': session };
  const ttag = ((await (await fetch(`${url}/keys`, { method: 'POST', headers: auth })).json()) as { ttag: string }).ttag;
  const client = createECDH('prime256v1');
  client.generateKeys();
  const exportBody = JSON.stringify({ ttag, clientPubKey: client.getPublicKey('base64') });

  const baseline = await measure({ name: 'bare Koa GET / (small JSON)', url: bare.url });
  const rows: BenchResult[] = [baseline];
  rows.push(await measure({ name: 'gateway GET /health', url: `${url}/health` }));
  rows.push(await measure({ name: 'gateway POST /keys', url: `${url}/keys`, method: 'POST', headers: auth }));
  rows.push(await measure({ name: 'gateway POST /keys/export', url: `${url}/keys/export`, method: 'POST', headers: auth, body: exportBody }));
  printTable('seven-operation surface, embedded key server', rows, baseline);
  bare.close();
  await gateway.close();
}
