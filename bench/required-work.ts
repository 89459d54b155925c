import type { AuditChainPages, AuditChainSlice } from '../src/domain/audit/audit-entry.js';
import type { AuditPage } from '../src/domain/audit/audit-query.js';
import type { AuditRecord } from '../src/domain/audit/audit.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import type { AuditLog } from '../src/ports/audit-log.port.js';
import type { Logger } from '../src/ports/logger.port.js';
import { ADMIN_PASSWORD, pairedRuns, signIn, type Job } from './bench-run.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';
import type { LoadClient } from './load-client.js';

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

/** How many alternated rounds each variant gets (fewer than a figure: these explain, they do not judge). */
const ROUNDS = 3;

/**
 * Where the time of unbound `GET /api/session` goes, measured rather than read off a profile: the
 * same route on gateways that leave out one required piece of work at a time (the chained audit
 * record, the access line, both), each in alternated rounds beside bare Koa. The last one is what the
 * transport and the session check cost with no audit and no log at all.
 */
export async function requiredWorkNote(load: LoadClient, koa: { readonly name: string; readonly job: Job }, deployedRatio: number): Promise<string> {
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
      const paired = await pairedRuns(
        load,
        koa,
        { name: `GET /api/session, ${variant.name}`, job },
        (row, floor) => row.requestsPerSecond / floor.requestsPerSecond,
        ROUNDS,
      );
      if (paired.row.non2xx + paired.row.errors > 0) throw new Error(`${variant.name}: ${paired.row.non2xx + paired.row.errors} requests failed`);
      parts.push(`${variant.name} ${paired.value.toFixed(2)}`);
    } finally {
      await gateway.close();
    }
  }
  return `the same route without a required piece, as a ratio to bare Koa (median of ${ROUNDS} alternated rounds): deployed ${deployedRatio.toFixed(2)}, ${parts.join(', ')}`;
}
