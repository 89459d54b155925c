import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import type { AuditRecord } from '../src/domain/audit/audit.js';
import type { AuditChainPages, AuditChainSlice } from '../src/domain/audit/audit-entry.js';
import type { AuditPage } from '../src/domain/audit/audit-query.js';
import type { AuditLog } from '../src/ports/audit-log.port.js';
import type { Logger } from '../src/ports/logger.port.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import { startBareKoa } from './floors.js';
import { type Job, type LoadClient, noFailures, ratioTo } from './load-client.js';
import { serverCpuMicros } from './table.js';

/**
 * A measuring tool, never wired into a gateway that serves anyone: an audit log that keeps nothing.
 * A gateway given it answers exactly as before but writes no audit record, so the difference between
 * it and the deployed gateway, on the same route in the same run, is what the record costs in place.
 */
class UnkeptAuditLog implements AuditLog {
  async append(_record: AuditRecord): Promise<void> {}
  async complete(): Promise<boolean> {
    return true;
  }
  async get(): Promise<AuditRecord | undefined> {
    return undefined;
  }
  async query(): Promise<AuditPage> {
    return { items: [] };
  }
  async readChain(): Promise<AuditChainSlice> {
    return { entries: [], checkpoints: [], partial: false };
  }
  async readChainPages(): Promise<AuditChainPages> {
    return { checkpoints: [], partial: false, pages: (async function* () {})() };
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

/** Likewise a logger that writes nothing: the access line's cost in place. */
const unwrittenLogger: Logger = { info() {}, warn() {}, error() {} };

/**
 * Where the time of unbound `GET /api/session` goes, measured rather than read off a profile: the
 * same route on gateways that leave out one required piece of work at a time (the chained audit
 * record, the access line, both), each in alternated rounds beside bare Koa. The last one is what the
 * transport and the session check cost with no audit and no log at all.
 */
export async function requiredWorkNote(
  load: LoadClient,
  koa: { readonly name: string; readonly job: Job },
  deployedRatio: number,
): Promise<string> {
  const variants: { readonly name: string; readonly logger: Logger; readonly auditLog?: AuditLog }[] = [
    { name: 'no audit record', logger: deployedLogger(), auditLog: new UnkeptAuditLog() },
    { name: 'no access line', logger: unwrittenLogger },
    { name: 'neither', logger: unwrittenLogger, auditLog: new UnkeptAuditLog() },
  ];
  const parts: string[] = [];
  for (const variant of variants) {
    const gateway: Gateway = await createGateway(
      { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...DEPLOYED },
      { logger: variant.logger, ...(variant.auditLog ? { auditLog: variant.auditLog } : {}) },
    );
    try {
      const { url } = await gateway.listen(0, '127.0.0.1');
      const job = { url: `${url}/api/session`, headers: { Authorization: `Bearer ${await signIn(url)}` } };
      const paired = await load.paired(koa, { name: `GET /api/session, ${variant.name}`, job }, ratioTo, load.settings.noteRounds);
      noFailures(paired.row);
      parts.push(`${variant.name} ${paired.value.toFixed(2)}`);
    } finally {
      await gateway.close();
    }
  }
  return `the same route without a required piece, as a ratio to bare Koa (median of ${load.settings.noteRounds} alternated rounds): deployed ${deployedRatio.toFixed(2)}, ${parts.join(', ')}`;
}

/** Microseconds bare Koa is made to spend on the CPU before each answer. */
const WORK_MICROS = [10, 25, 50] as const;

/**
 * What any route's own work leaves of bare Koa's rate on this machine, whatever that work is: bare Koa
 * that spins W microseconds on the CPU before each answer (a busy loop: no I/O, no allocation, no
 * promise), as a ratio to bare Koa in alternated rounds, with its CPU per request beside bare Koa's.
 * Were serving a request a fixed cost, W would add W to it; the CPU per request shows what W adds in
 * place, with the load generator in the other process on the same two cores.
 */
export async function workBudgetNote(
  load: LoadClient,
  koa: { readonly name: string; readonly job: Job },
  body: Record<string, unknown>,
): Promise<string> {
  let spinMicros = 0;
  const spinning = await startBareKoa(body, () => {
    const end = performance.now() + spinMicros / 1000;
    while (performance.now() < end);
    return true;
  });
  try {
    const parts: string[] = [];
    for (const micros of WORK_MICROS) {
      spinMicros = micros;
      const paired = await load.paired(
        koa,
        { name: `bare Koa spending ${micros} us before each answer`, job: { url: spinning.url } },
        ratioTo,
        load.settings.noteRounds,
      );
      noFailures(paired.row);
      const added = serverCpuMicros(paired.row) - serverCpuMicros(paired.floor);
      parts.push(`${micros} us: ${paired.value.toFixed(2)} (adds ${added.toFixed(0)} us/req of CPU)`);
    }
    return (
      `bare Koa spending W us on the CPU before each answer (a busy loop, no I/O), as a ratio to bare Koa ` +
      `(median of ${load.settings.noteRounds} alternated rounds): ${parts.join(', ')}`
    );
  } finally {
    spinning.close();
  }
}
