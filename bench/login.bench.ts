import { pathToFileURL } from 'node:url';
import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { createGateway } from '../src/app/create-gateway.js';
import { measure, printTable } from './support.js';

const PASSWORD = 'bench-admin-password';

/** `POST /login` with 32 in flight against the embedded key server (the target: >= 500 logins/s). */
export async function benchLogin(): Promise<void> {
  // Every login mints a session of one principal: the per-principal cap is lifted for the run.
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: PASSWORD }, maxSessionsPerPrincipal: 10_000_000 },
    { logger: new MemoryLogger() },
  );
  const { url } = await gateway.listen(0, '127.0.0.1');
  const body = JSON.stringify({ user: 'admin', password: PASSWORD });
  const target = { url: `${url}/login`, method: 'POST' as const, headers: { 'content-type': 'application/json' }, body, connections: 32 };
  await measure({ ...target, name: 'warm-up', durationSeconds: 1 });
  const row = await measure({ ...target, name: 'gateway POST /login (32 in flight)' });
  printTable('password login, embedded key server', [row]);
  await gateway.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchLogin();
