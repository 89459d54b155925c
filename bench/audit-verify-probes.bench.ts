import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteAuditLog } from '../src/adapters/audit-log/sqlite-audit-log.js';
import { createGateway } from '../src/app/create-gateway.js';
import { auditTestKeys, testChain, trusted, writeSqliteChain } from '../test/_support/audit-chain.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import type { LoadClient } from './load-client.js';
import type { Figure } from './table.js';

const ENTRIES = 100_000;
/** docs/operations.md: a probe must not wait on a verify; 99 in 100 within this. */
const BOUND_MS = 100;

/** Probes /health and /api/health one after another until `until` says stop: each probe's time in ms. */
async function probe(url: string, until: () => boolean, atLeast = 0): Promise<number[]> {
  const took: number[] = [];
  while (!until() || took.length < atLeast) {
    for (const path of ['/health', '/api/health']) {
      const started = performance.now();
      const reply = await fetch(`${url}${path}`);
      await reply.arrayBuffer();
      if (reply.status !== 200) throw new Error(`${path} answered ${reply.status}`);
      took.push(performance.now() - started);
    }
  }
  return took;
}

const p99 = (values: readonly number[]) => [...values].sort((a, b) => b - a)[Math.floor(values.length / 100)] ?? 0;

/**
 * Health probes while `GET /api/audit/verify` checks a SQLite chain of 100,000 entries (one row):
 * the 99th percentile of the probes' time during the verify, beside the same probes on the same
 * gateway with no verify running (the floor). A verify that held the event loop would hold every probe
 * for seconds; the goal is the bound itself.
 */
export async function figures(_load: LoadClient): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-verify-'));
  const keys = auditTestKeys();
  const file = join(dir, 'audit.db');
  await writeSqliteChain(file, testChain('gw-old', keys), ENTRIES);
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...DEPLOYED },
    {
      logger: deployedLogger(),
      auditLog: SqliteAuditLog.open({ file, chain: testChain('gw-1', keys) }),
      auditVerifyKeys: { macKey: keys.macKey, publicKeys: trusted(keys) },
    },
  );
  try {
    const { url } = await gateway.listen(0, '127.0.0.1');
    const session = await signIn(url);
    let answered = false;
    const began = performance.now();
    const verifying = fetch(`${url}/api/audit/verify`, { headers: { Authorization: `Bearer ${session}` } }).then(async (reply) => {
      const body = (await reply.json()) as { ok?: boolean };
      answered = true;
      if (reply.status !== 200 || body.ok !== true) throw new Error(`verify answered ${reply.status}`);
    });
    const during = await probe(url, () => answered);
    await verifying;
    const verifyMs = performance.now() - began;
    const idle = await probe(url, () => true, during.length);
    const row = p99(during);
    return [
      {
        figure: `health p99 during a ${ENTRIES / 1000}k verify`,
        measured: `${row.toFixed(1)} ms over ${during.length} probes`,
        floor: `the same probes, no verify: ${p99(idle).toFixed(1)} ms`,
        value: row,
        goal: { op: '<=', target: BOUND_MS, unit: ' ms' },
        runs: [],
        note: `verify took ${(verifyMs / 1000).toFixed(1)} s; slowest probe during it ${Math.max(...during).toFixed(0)} ms`,
      },
    ];
  } finally {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
