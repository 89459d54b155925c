import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createAuthority } from '../_support/certificates.js';

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const KEY = Buffer.alloc(32, 3).toString('base64');
const AUDIT_KEY = Buffer.alloc(32, 4).toString('base64');
const SESSION_KEY = Buffer.alloc(32, 5).toString('base64');

/** Runs `keygate serve --print-config` with `env` (over a clean environment) and parses what it prints. */
function printConfig(env: Record<string, string>) {
  const run = spawnSync(process.execPath, [BIN, 'serve', '--print-config'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 30_000,
  });
  return { ...run, output: `${run.stdout}${run.stderr}` };
}

/** A port something else already listens on: a gateway that tried to listen there would fail. */
async function takenPort(t: { teardown(fn: () => void): void }): Promise<number> {
  const server = createServer();
  t.teardown(() => server.close());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return (server.address() as AddressInfo).port;
}

test('serve --print-config prints the effective configuration as JSON, secrets masked, and exits 0 without listening or writing', async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'keygate-print-config-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const dataDir = join(scratch, 'data-not-made');
  const seed = join(scratch, 'seed.json');
  writeFileSync(seed, JSON.stringify({ principals: [{ name: 'seeded', kind: 'user', password: 'seed-secret-pw-5' }] }));
  const port = await takenPort(t);
  const secrets = ['admin-secret-pw-1', 'pg-secret-pw-2', 'redis-secret-pw-3', 'seed-secret-pw-5', KEY, AUDIT_KEY, SESSION_KEY];
  const run = printConfig({
    TE_GATEWAY_PORT: String(port),
    TE_GATEWAY_DATA_DIR: dataDir,
    TE_GATEWAY_RATE_LIMIT: '7',
    TE_GATEWAY_TRUSTED_PROXIES: '10.0.0.1',
    TE_KEYSERVER_SEED: seed,
    TE_KEYSERVER_ADMIN_PASSWORD: 'admin-secret-pw-1',
    TE_KEYSERVER_MASTER_KEY: KEY,
    TE_GATEWAY_AUDIT_URL: 'postgres://keygate:pg-secret-pw-2@db.example:5432/audit',
    TE_GATEWAY_AUDIT_KEY: AUDIT_KEY,
    TE_GATEWAY_REDIS_URL: 'redis://:redis-secret-pw-3@cache.example:6379',
    TE_GATEWAY_SESSION_KEY: SESSION_KEY,
  });
  t.is(run.status, 0, run.output);
  const config = JSON.parse(run.stdout);
  t.like(config, { port, rateLimit: 7, trustedProxies: ['10.0.0.1'], throttleNameFailures: 5, maxSessionsPerPrincipal: 1000 });
  t.like(config.keyServer, { kind: 'embedded', dataDir, adminPassword: '[redacted]', masterKey: '[redacted]' });
  t.deepEqual(config.keyServer.seed, { principals: [{ name: 'seeded', kind: 'user', password: '[redacted]' }] });
  t.like(config.audit, { kind: 'postgres', url: '[redacted]' });
  t.like(config.auditIntegrity, { key: '[redacted]', trustedKeys: [] });
  t.like(config.sessionStore, { kind: 'redis', url: '[redacted]', sessionKeys: ['[redacted]'] });
  for (const secret of secrets) t.false(run.output.includes(secret), 'a secret is never printed');
  t.false(/listening/.test(run.output));
  t.false(existsSync(dataDir), 'nothing is written: not even the data directory');
});

test('serve --print-config masks a private key read from a file, and stops on a bad value', async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'keygate-print-config-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const ca = await createAuthority('print-config');
  const keyPem = ca.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(join(scratch, 'client.pem'), ca.pem);
  writeFileSync(join(scratch, 'client.key'), keyPem);
  const run = printConfig({
    TE_GATEWAY_DATA_DIR: join(scratch, 'data'),
    TE_GATEWAY_KEYSERVER_URL: 'https://ks.example:8443',
    TE_GATEWAY_KEYSERVER_FINGERPRINT: 'ab'.repeat(32),
    TE_GATEWAY_KEYSERVER_CLIENT_CERT: join(scratch, 'client.pem'),
    TE_GATEWAY_KEYSERVER_CLIENT_KEY: join(scratch, 'client.key'),
  });
  t.is(run.status, 0, run.output);
  const config = JSON.parse(run.stdout);
  t.like(config.keyServer, { kind: 'tls', url: 'https://ks.example:8443', clientKey: '[redacted]', fingerprint: 'ab'.repeat(32) });
  t.false(run.output.includes('PRIVATE KEY'));
  t.false(run.output.includes(keyPem.split('\n')[1]!));

  const bad = printConfig({ TE_GATEWAY_RATE_LIMIT: 'many' });
  t.is(bad.status, 2);
  t.regex(bad.stderr, /^keygate: TE_GATEWAY_RATE_LIMIT: expected an integer/m);
  t.is(bad.stdout, '');
});
