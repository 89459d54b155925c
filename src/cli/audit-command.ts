import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  readPostgresChain,
  readSqliteChain,
  withPostgresChainPages,
  withSqliteChainPages,
} from '../adapters/audit-log/audit-chain-reader.js';
import { AUDIT_HEAD_FILE, FileAuditWitness } from '../adapters/audit-log/file-audit-witness.js';
import { AUDIT_FILES } from '../app/audit-keys.js';
import { type AuditChainPages, type AuditChainRange, type AuditChainSlice, auditKeyId } from '../domain/audit/audit-entry.js';
import { AuditLogVerifier, type AuditVerification, inChainOrder } from '../domain/audit/audit-verify.js';
import type { WitnessedHead } from '../domain/audit/audit-witness.js';
import { exportLines, parseExport } from './audit-jsonl.js';

export const AUDIT_USAGE = `Usage: keygate audit <verify|export|public-key> [options]

  verify      Verify the audit chains and checkpoints, reading the database directly; prints
              { ok, checked, writers, breaks, firstBreak? } as JSON (every break, at most 100 listed
              per writer), and each listed break in words on standard error unless --json.
              Exit 0 clean, 1 a break, 2 usage, 3 unreadable.
  export      Write entries (with their chain fields) and checkpoints as JSON lines: --format jsonl.
  public-key  Print the checkpoint public key (PEM) and its key id, for auditors; with --json,
              [{ keyId, pem }].

--json is accepted by each (verify and export print JSON anyway); with it, an error is one JSON line
{ "error": { "detail" } } on stderr.

Source (verify, export); default TE_GATEWAY_AUDIT_URL, else <data dir>/audit.db:
  --sqlite FILE | --postgres URL [--schema NAME] | --file EXPORT.jsonl (verify only)
  --from ISO --to ISO     only this time range (inclusive)
Keys (verify):
  --key-file FILE         the audit MAC key (base64 of 32 bytes); default TE_GATEWAY_AUDIT_KEY or
                          TE_GATEWAY_AUDIT_KEY_FILE, else <data dir>/${AUDIT_FILES.macKey}. Without one, links and
                          signed checkpoints are checked, not each entry's MAC.
  --public-key FILE       a trusted checkpoint public key (PEM), repeatable; default the public half of
                          <data dir>/${AUDIT_FILES.signingKey} (or TE_GATEWAY_AUDIT_SIGNING_KEY_FILE) and
                          TE_GATEWAY_AUDIT_TRUSTED_KEYS
  --data-dir DIR          default TE_GATEWAY_DATA_DIR, else ./data; its ${AUDIT_HEAD_FILE} (the heads the
                          gateway witnessed) shows a chain whose newest entries were removed
Export: --out FILE (default: standard output)
`;

type Env = Readonly<Record<string, string | undefined>>;
type Options = Record<string, string | string[] | boolean | undefined>;

class UsageError extends Error {
  override name = 'UsageError';
}

/** `keygate audit ...`: the exit status. */
export async function auditCommand(argv: readonly string[], env: Env = process.env): Promise<number> {
  const [sub, ...rest] = argv;
  const json = rest.includes('--json');
  try {
    if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help')) {
      process.stdout.write(AUDIT_USAGE);
      return sub === undefined ? 2 : 0;
    }
    const { values } = parseArgs({ args: [...rest], strict: true, options: OPTIONS });
    const dataDir = (values['data-dir'] as string | undefined) ?? nonEmpty(env.TE_GATEWAY_DATA_DIR) ?? './data';
    if (sub === 'public-key') return publicKey(values, env, dataDir, json);
    const range = rangeOf(values);
    if (sub === 'verify') return await verify(values, env, dataDir, range, json);
    if (sub === 'export') return await exportLog(values, env, dataDir, range);
    throw new UsageError(`unknown audit command "${sub}"`);
  } catch (error) {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const detail = `${(error as Error).message}${describeCause(error)}`;
    const hint = usage ? `run "keygate audit ${sub} --help" for the usage` : undefined;
    if (json) process.stderr.write(`${JSON.stringify({ error: hint === undefined ? { detail } : { detail, hint } })}\n`);
    else process.stderr.write(`keygate audit: ${detail}\n${hint === undefined ? '' : `${hint}\n`}`);
    return usage ? 2 : 3;
  }
}

const OPTIONS = {
  sqlite: { type: 'string' },
  postgres: { type: 'string' },
  schema: { type: 'string' },
  file: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  'key-file': { type: 'string' },
  'public-key': { type: 'string', multiple: true },
  'data-dir': { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
} as const;

async function verify(values: Options, env: Env, dataDir: string, range: AuditChainRange, json: boolean): Promise<number> {
  const macKey = macKeyOf(values, env, dataDir);
  if (macKey === undefined) process.stderr.write('keygate audit: no MAC key: checking links and signed checkpoints only\n');
  const publicKeys = publicKeysOf(values, env, dataDir);
  const witnessed = witnessedHeads(dataDir, range);
  // A database is read and verified a page at a time, never held whole in memory.
  const report = await readPages(values, env, dataDir, range, async (chain): Promise<AuditVerification> => {
    const verifier = new AuditLogVerifier({
      checkpoints: chain.checkpoints,
      partial: chain.partial,
      publicKeys,
      witnessed,
      ...(macKey ? { macKey } : {}),
    });
    for await (const page of chain.pages) verifier.add(page);
    return verifier.result();
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (!json) process.stderr.write(inWords(report));
  return report.ok ? 0 : 1;
}

/** The breaks for a reader, one line each, and those past the listed ones counted per writer. */
function inWords(report: AuditVerification): string {
  const lines = report.breaks.map(
    ({ writer, seq, kind, detail }) => `keygate audit: break: writer ${writer || '(none)'} seq ${seq}: ${kind}: ${detail}\n`,
  );
  for (const { writer, unlisted } of report.writers)
    if (unlisted > 0) lines.push(`keygate audit: writer ${writer}: ${unlisted} more breaks not listed\n`);
  return lines.join('');
}

async function exportLog(values: Options, env: Env, dataDir: string, range: AuditChainRange): Promise<number> {
  if (values.format !== 'jsonl') throw new UsageError('export: --format jsonl is required');
  const slice = await read(values, env, dataDir, range, false);
  const text = `${[...exportLines(slice, range)].join('\n')}\n`;
  if (typeof values.out === 'string') writeFileSync(values.out, text, { mode: 0o600 });
  else process.stdout.write(text);
  return 0;
}

/** The data directory's witnessed heads (when there), for a whole-log verify: a truncation shows below them. */
function witnessedHeads(dataDir: string, range: AuditChainRange): readonly WitnessedHead[] {
  if (range.from !== undefined || range.to !== undefined || !existsSync(join(dataDir, AUDIT_HEAD_FILE))) return [];
  return new FileAuditWitness(dataDir).headsNow();
}

function publicKey(values: Options, env: Env, dataDir: string, json: boolean): number {
  const keys = publicKeysOf({ ...values, 'public-key': undefined }, { ...env, TE_GATEWAY_AUDIT_TRUSTED_KEYS: undefined }, dataDir);
  if (keys.size === 0)
    throw new UsageError(`no checkpoint key in ${join(dataDir, AUDIT_FILES.signingKey)} nor TE_GATEWAY_AUDIT_SIGNING_KEY_FILE`);
  const pems = [...keys].map(([keyId, key]) => ({ keyId, pem: key.export({ type: 'spki', format: 'pem' }).toString() }));
  if (json) process.stdout.write(`${JSON.stringify(pems, null, 2)}\n`);
  else for (const { keyId, pem } of pems) process.stdout.write(`# keygate audit checkpoint key ${keyId}\n${pem}`);
  return 0;
}

/** The source named by the options, else the gateway's own (TE_GATEWAY_AUDIT_URL, else the data dir's). */
async function read(values: Options, env: Env, dataDir: string, range: AuditChainRange, fileAllowed: boolean): Promise<AuditChainSlice> {
  const sources = (['sqlite', 'postgres', 'file'] as const).filter((name) => typeof values[name] === 'string');
  if (sources.length > 1) throw new UsageError('give one of --sqlite, --postgres, --file');
  if (typeof values.file === 'string') {
    if (!fileAllowed) throw new UsageError('export reads a database, not a file');
    if (range.from !== undefined || range.to !== undefined)
      throw new UsageError('--from and --to apply to a database; export the range instead');
    return parseExport(readFileSync(values.file, 'utf8'));
  }
  const url = (values.postgres as string | undefined) ?? (sources.length === 0 ? nonEmpty(env.TE_GATEWAY_AUDIT_URL) : undefined);
  if (url !== undefined) return readPostgresChain(url, values.schema as string | undefined, range);
  return readSqliteChain((values.sqlite as string | undefined) ?? join(dataDir, 'audit.db'), range);
}

/** Like `read`, page by page: an export file (read whole by nature) is put in chain order as one page. */
async function readPages<T>(
  values: Options,
  env: Env,
  dataDir: string,
  range: AuditChainRange,
  use: (chain: AuditChainPages) => Promise<T>,
): Promise<T> {
  const sources = (['sqlite', 'postgres', 'file'] as const).filter((name) => typeof values[name] === 'string');
  if (sources.length > 1) throw new UsageError('give one of --sqlite, --postgres, --file');
  if (typeof values.file === 'string') {
    const slice = await read(values, env, dataDir, range, true);
    const entries = inChainOrder(slice.entries);
    return use({
      checkpoints: slice.checkpoints,
      partial: slice.partial,
      pages: (async function* () {
        yield entries;
      })(),
    });
  }
  const url = (values.postgres as string | undefined) ?? (sources.length === 0 ? nonEmpty(env.TE_GATEWAY_AUDIT_URL) : undefined);
  if (url !== undefined) return withPostgresChainPages(url, (values.schema as string | undefined) ?? 'public', range, use);
  return withSqliteChainPages((values.sqlite as string | undefined) ?? join(dataDir, 'audit.db'), range, use);
}

function macKeyOf(values: Options, env: Env, dataDir: string): Buffer | undefined {
  const file = (values['key-file'] as string | undefined) ?? nonEmpty(env.TE_GATEWAY_AUDIT_KEY_FILE);
  const inData = join(dataDir, AUDIT_FILES.macKey);
  const text =
    file !== undefined
      ? readFileSync(file, 'utf8')
      : (nonEmpty(env.TE_GATEWAY_AUDIT_KEY) ?? (existsSync(inData) ? readFileSync(inData, 'utf8') : undefined));
  if (text === undefined) return undefined;
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new UsageError('the MAC key is not base64 of 32 bytes');
  return key;
}

function publicKeysOf(values: Options, env: Env, dataDir: string): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  const add = (key: KeyObject) => keys.set(auditKeyId(key), key);
  const given = (values['public-key'] as string[] | undefined) ?? [];
  for (const path of given) add(createPublicKey(readFileSync(path, 'utf8')));
  if (given.length > 0) return keys;
  const signing = nonEmpty(env.TE_GATEWAY_AUDIT_SIGNING_KEY_FILE) ?? join(dataDir, AUDIT_FILES.signingKey);
  if (existsSync(signing)) add(createPublicKey(createPrivateKey(readFileSync(signing, 'utf8'))));
  for (const path of nonEmpty(env.TE_GATEWAY_AUDIT_TRUSTED_KEYS)?.split(',') ?? [])
    if (path.trim()) add(createPublicKey(readFileSync(path.trim(), 'utf8')));
  return keys;
}

function rangeOf(values: Options): AuditChainRange {
  const at = (name: 'from' | 'to') => {
    const raw = values[name];
    if (typeof raw !== 'string') return {};
    const ms = /^\d{4}-\d\d-\d\dT/.test(raw) ? Date.parse(raw) : Number.NaN;
    if (!Number.isFinite(ms)) throw new UsageError(`--${name}: expected an ISO 8601 date-time`);
    return { [name]: ms };
  };
  const range = { ...at('from'), ...at('to') } as AuditChainRange;
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) throw new UsageError('--from is later than --to');
  return range;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

/** The cause of an unreadable store, without a URL's password (pg errors do not carry the URL). */
function describeCause(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `: ${cause.message}` : '';
}
