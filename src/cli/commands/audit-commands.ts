import { setTimeout as sleep } from 'node:timers/promises';
import { withFileVariables } from '../../app/config/env-files.js';
import type { AuditQueryRequest, AuditRecordView, KeygateAdmin } from '../../client/keygate-admin.js';
import { auditCommand as offlineAuditCommand } from '../audit-command.js';
import { admin, COMMON_USAGE, defineCommand, type OperatorCommand, print, table, text, UsageError, type Values } from './command.js';

/** Subcommands that read the audit database directly (no gateway needed): audit-command.ts. */
const OFFLINE = new Set(['verify', 'export', 'public-key']);

const AUDIT_USAGE = `Usage: keygate audit <list|tail|verify|export|public-key> [filters] [options]
  verify, export and public-key read the audit database itself ("keygate audit verify --help").
  list [--from ISO] [--to ISO] [--principal NAME] [--operation ID] [--outcome ok|denied|error|pending]
       [--object TEXT] [--limit N] [--cursor C]
                                         one page, newest first (needs the audit.read operation);
                                         --object matches exactly, a membership change by its JSON
                                         object: '{"group":"ops","member":"team x"}'
  tail [--limit N] [--follow] [--interval MS]
                                         the latest N records, oldest first; --follow keeps printing
                                         new ones (polling every MS, 2000 by default) until interrupted
${COMMON_USAGE}
`;

const FILTERS = ['from', 'to', 'principal', 'operation', 'outcome', 'object', 'cursor'] as const;

const row = (r: AuditRecordView) => [r.at, r.operation, r.outcome, String(r.status), r.principal ?? '-', r.object ?? '-', r.code ?? ''];
const HEADER = ['AT', 'OPERATION', 'OUTCOME', 'STATUS', 'PRINCIPAL', 'OBJECT', 'CODE'];

const AUDIT_OPTIONS = {
  ...Object.fromEntries(FILTERS.map((name) => [name, { type: 'string' } as const])),
  limit: { type: 'string' },
  follow: { type: 'boolean', default: false },
  interval: { type: 'string' },
} as const;

/** list and tail, through a gateway. */
const throughGateway = defineCommand(
  {
    name: 'audit',
    summary: 'audit records: list a page, tail the latest; verify or export the chain',
    usage: AUDIT_USAGE,
    options: AUDIT_OPTIONS,
  },
  async ({ values, positionals }, ctx) => {
    const [sub = 'list'] = positionals;
    const api = admin(values, ctx.env);
    if (sub === 'list') {
      const page = await api.queryAudit(queryOf(values));
      return print(
        ctx,
        values.json,
        page,
        () => table([HEADER, ...page.items.map(row)]) + (page.next ? `next: --cursor ${page.next}\n` : ''),
      );
    }
    if (sub === 'tail') return tail(api, values, ctx);
    throw new UsageError(`audit: unknown subcommand "${sub}"`);
  },
);

export const auditCommand: OperatorCommand = {
  ...throughGateway,
  run: (argv, ctx) => (OFFLINE.has(argv[0] ?? '') ? offlineAuditCommand(argv, withFileVariables(ctx.env)) : throughGateway.run(argv, ctx)),
};

function queryOf(values: Values): AuditQueryRequest {
  const query: Record<string, string | number> = {};
  for (const name of FILTERS) {
    const value = text(values, name);
    if (value !== undefined) query[name] = value;
  }
  const limit = text(values, 'limit');
  if (limit !== undefined) query.limit = positive(limit, '--limit');
  return query as AuditQueryRequest;
}

function positive(value: string, flag: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag}: expected a positive integer, got "${value}"`);
  return Number(value);
}

/** The latest records oldest first (one JSON line each with --json), then, with --follow, the new ones as they come. */
async function tail(api: KeygateAdmin, values: Values, ctx: Parameters<OperatorCommand['run']>[1]): Promise<void> {
  const limit = positive(text(values, 'limit') ?? '10', '--limit');
  const intervalMs = positive(text(values, 'interval') ?? '2000', '--interval');
  const seen = new Set<string>();
  const show = (records: readonly AuditRecordView[], header: boolean) => {
    const fresh = [...records].reverse().filter((record) => !seen.has(record.id));
    for (const record of fresh) seen.add(record.id);
    if (values.json) for (const record of fresh) ctx.out(`${JSON.stringify(record)}\n`);
    else if (fresh.length > 0 || header) ctx.out(table(header ? [HEADER, ...fresh.map(row)] : fresh.map(row)));
  };
  show((await api.queryAudit({ limit })).items, true);
  while (values.follow) {
    await sleep(intervalMs);
    show((await api.queryAudit({ limit: 100 })).items, false);
  }
}
