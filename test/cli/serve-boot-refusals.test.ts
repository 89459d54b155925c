import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { createTestClient } from '../_support/keyserver-daemon.js';
import { runKeygate } from '../_support/process-run.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const BASE = { TE_GATEWAY_HOST: '127.0.0.1', TE_GATEWAY_PORT: '0', TE_GATEWAY_LOG_LEVEL: 'warn' };

/** What a refused boot left in its data directory, but for the writer locks (kept by design, docs/operations.md). */
function leftBehind(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir).filter((name) => !/\.lock(\.holder|-journal)?$/.test(name));
}

function scratchDataDir(prefix: string): string {
  return join(scratchDir(prefix), 'data');
}

test('keygate serve refuses a client certificate and key that do not match: one line naming both variables, exit 2, nothing written', async (t) => {
  const [one, other] = await Promise.all([createTestClient(), createTestClient()]);
  const dataDir = scratchDataDir('keygate-client-mismatch-');
  const result = await runKeygate(t, ['serve'], {
    ...BASE,
    TE_GATEWAY_DATA_DIR: dataDir,
    TE_GATEWAY_KEYSERVER_URL: 'https://127.0.0.1:1',
    TE_GATEWAY_KEYSERVER_FINGERPRINT: 'ab'.repeat(32),
    TE_GATEWAY_KEYSERVER_CLIENT_CERT: one.certPath,
    TE_GATEWAY_KEYSERVER_CLIENT_KEY: other.keyPath,
  });
  t.is(result.status, 2, `${result.stdout}${result.stderr}`);
  const lines = result.stderr.trim().split('\n');
  t.is(lines.length, 1, result.stderr);
  t.regex(lines[0]!, /^keygate: TE_GATEWAY_KEYSERVER_CLIENT_CERT and TE_GATEWAY_KEYSERVER_CLIENT_KEY: /);
  t.false(result.stderr.includes('PRIVATE KEY'), 'the key is never echoed');
  t.deepEqual(leftBehind(dataDir), [], 'nothing is written');
  t.false(existsSync(dataDir), 'not even the data directory');
});

test('keygate serve on an audit database it cannot reach stops naming the variable and keeps no generated audit key', async (t) => {
  const dataDir = scratchDataDir('keygate-audit-unreachable-');
  const result = await runKeygate(t, ['serve'], {
    ...BASE,
    TE_GATEWAY_DATA_DIR: dataDir,
    TE_GATEWAY_AUDIT_URL: 'postgres://keygate:not-this-one@127.0.0.1:1/audit',
    TE_GATEWAY_AUDIT_TIMEOUT_MS: '2000',
  });
  t.is(result.status, 1, `${result.stdout}${result.stderr}`);
  t.regex(result.stderr, /^keygate: TE_GATEWAY_AUDIT_URL: audit store unavailable/m);
  t.false(result.stderr.includes('not-this-one'), 'the password is never echoed');
  t.deepEqual(leftBehind(dataDir), [], 'no audit key, writer id, identity or store is left behind');
});
