import type { AuditKeyUse, AuditRecord, AuditRecordOutcome } from '../../domain/audit/audit.js';
import {
  AUDIT_ALIAS_FIELDS,
  AUDIT_BATCH_FIELDS,
  AUDIT_CONTEXT_FIELDS,
  AUDIT_DETAIL_FIELDS,
  AUDIT_RECORD_FIELDS,
  AUDIT_SIGNING_FIELDS,
  type AuditChainRange,
  type AuditCheckpoint,
  type AuditEntry,
  type AuditEntryKind,
} from '../../domain/audit/audit-entry.js';
import type { ResolvedAuditQuery } from '../../domain/audit/audit-query.js';
import type { EncryptionContext } from '../../wire/encryption-context.js';

/**
 * What the SQLite and PostgreSQL audit logs share: the columns, the row mappings, the fold of a pending
 * entry and its outcome into one record (the `audit_record` view), and the query's WHERE clause. Each
 * store names its own placeholders and its own type for `at`.
 */
/** A record field's column: its name in snake case (`requestId` is `request_id`). */
const columnOf = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const RECORD_FIELDS = [
  ...AUDIT_RECORD_FIELDS,
  ...AUDIT_DETAIL_FIELDS,
  ...AUDIT_BATCH_FIELDS,
  ...AUDIT_ALIAS_FIELDS,
  ...AUDIT_SIGNING_FIELDS,
  ...AUDIT_CONTEXT_FIELDS,
] as const;
export const AUDIT_COLUMNS = RECORD_FIELDS.map(columnOf).join(', ');
export const ENTRY_COLUMNS = `${AUDIT_COLUMNS}, entry, writer, seq, prev, mac, hash`;
export const CHECKPOINT_COLUMNS = 'writer, seq, mac, at, key_id, signature, hash';

/**
 * One operation as the readers see it: its pending or record entry, completed by its outcome entry.
 * `withDetail: false` is the view as the migrations before the detail columns made it, `withBatch:
 * false` as those before the batch columns (`keys`, `keys_omitted`) made it, `withAlias: false` as
 * those before the `alias` column, `withSigning: false` as those before the signing columns (`key_type`,
 * `alg`, `kid`), `withContext: false` as those before the context columns (`context`, `contexts`,
 * `contexts_omitted`).
 */
export function foldedRecordView(
  table: string,
  view: string,
  { withDetail = true, withBatch = true, withAlias = true, withSigning = true, withContext = true } = {},
): string {
  const latest = (column: string) => `COALESCE(o.${column}, p.${column}) AS ${column}`;
  const context = withSigning && withContext ? `, ${latest('context')}, ${latest('contexts')}, ${latest('contexts_omitted')}` : '';
  const signing = withAlias && withSigning ? `, ${latest('key_type')}, ${latest('alg')}, ${latest('kid')}${context}` : '';
  const alias = withAlias ? `, ${latest('alias')}${signing}` : '';
  const batch = withDetail && withBatch ? `, ${latest('keys')}, ${latest('keys_omitted')}${alias}` : '';
  const detail = withDetail ? `, ${latest('version')}, ${latest('items')}, ${latest('failures')}${batch}` : '';
  return `CREATE VIEW ${view} AS
    SELECT p.id AS id, p.at AS at, p.request_id AS request_id, ${latest('principal')}, ${latest('session_ref')},
      p.operation AS operation, ${latest('object')}, ${latest('outcome')}, ${latest('status')}, ${latest('code')},
      ${latest('client_address')}, ${latest('acting_for')}${detail}
    FROM ${table} p LEFT JOIN ${table} o ON o.id = p.id AND o.entry = 'outcome'
    WHERE p.entry <> 'outcome'`;
}

export interface AuditRow {
  readonly id: string;
  readonly at: unknown;
  readonly request_id: string;
  readonly principal: string | null;
  readonly session_ref: string | null;
  readonly operation: string;
  readonly object: string | null;
  readonly outcome: string;
  readonly status: number;
  readonly code: string | null;
  readonly client_address: string | null;
  readonly acting_for: string | null;
  readonly version?: number | string | null;
  readonly items?: number | string | null;
  readonly failures?: number | string | null;
  /** JSON: the batch's keys and versions (AuditKeyUse[]). */
  readonly keys?: string | null;
  readonly keys_omitted?: number | string | null;
  readonly alias?: string | null;
  readonly key_type?: string | null;
  readonly alg?: string | null;
  readonly kid?: string | null;
  /** JSON: the encryption context (an object of its members). */
  readonly context?: string | null;
  /** JSON: a batch's distinct contexts (an array of those objects). */
  readonly contexts?: string | null;
  readonly contexts_omitted?: number | string | null;
}

export interface EntryRow extends AuditRow {
  readonly entry: string;
  readonly writer: string | null;
  readonly seq: number | string | null;
  readonly prev: string | null;
  readonly mac: string | null;
  readonly hash: string | null;
}

export interface CheckpointRow {
  readonly writer: string;
  readonly seq: number | string;
  readonly mac: string;
  readonly at: unknown;
  readonly key_id: string;
  readonly signature: string;
  readonly hash: string | null;
}

/** The values of one entry, in ENTRY_COLUMNS order. */
export function entryValues(entry: AuditEntry, at: (ms: number) => unknown): unknown[] {
  return [
    ...RECORD_FIELDS.map((field) =>
      field === 'at' ? at(entry.at) : Object.hasOwn(JSON_COLUMNS, field) ? JSON_COLUMNS[field as JsonField](entry) : (entry[field] ?? null),
    ),
    entry.entry,
    entry.writer ?? null,
    entry.seq ?? null,
    entry.prev ?? null,
    entry.mac ?? null,
    entry.hash ?? null,
  ];
}

export function checkpointValues(checkpoint: AuditCheckpoint, at: (ms: number) => unknown): unknown[] {
  return [
    checkpoint.writer,
    checkpoint.seq,
    checkpoint.mac,
    at(checkpoint.at),
    checkpoint.keyId,
    checkpoint.signature,
    checkpoint.hash ?? null,
  ];
}

export function recordFromRow(row: AuditRow, atMs: number): AuditRecord {
  const optional = (name: keyof AuditRecord, value: string | null) => (value === null ? {} : { [name]: value });
  const count = (name: keyof AuditRecord, value: number | string | null | undefined) =>
    value === null || value === undefined ? {} : { [name]: Number(value) };
  return {
    id: row.id,
    at: atMs,
    requestId: row.request_id,
    ...optional('principal', row.principal),
    ...optional('sessionRef', row.session_ref),
    operation: row.operation,
    ...optional('object', row.object),
    outcome: row.outcome as AuditRecordOutcome,
    status: Number(row.status),
    ...optional('code', row.code),
    ...optional('clientAddress', row.client_address),
    ...optional('actingFor', row.acting_for),
    ...count('version', row.version),
    ...count('items', row.items),
    ...count('failures', row.failures),
    ...(row.keys === null || row.keys === undefined ? {} : { keys: JSON.parse(row.keys) as AuditKeyUse[] }),
    ...count('keysOmitted', row.keys_omitted),
    ...optional('alias', row.alias ?? null),
    ...optional('keyType', row.key_type ?? null),
    ...optional('alg', row.alg ?? null),
    ...optional('kid', row.kid ?? null),
    ...(row.context === null || row.context === undefined ? {} : { context: JSON.parse(row.context) as EncryptionContext }),
    ...(row.contexts === null || row.contexts === undefined ? {} : { contexts: JSON.parse(row.contexts) as EncryptionContext[] }),
    ...count('contextsOmitted', row.contexts_omitted),
  } as AuditRecord;
}

type JsonField = 'keys' | 'context' | 'contexts';
/** The fields kept as JSON text, and how each is written (`recordFromRow` reads them back). */
const JSON_COLUMNS: Readonly<Record<JsonField, (entry: AuditEntry) => string | null>> = {
  keys: (entry) => keysColumn(entry.keys),
  // An object of its members: JSON.parse makes each one an own property, `__proto__` included.
  context: (entry) => (entry.context === undefined ? null : JSON.stringify(entry.context)),
  contexts: (entry) => (entry.contexts === undefined ? null : JSON.stringify(entry.contexts)),
};

/** A batch's keys as their column holds them: JSON, each `{ ttag, version? }` in that order. */
function keysColumn(keys: readonly AuditKeyUse[] | undefined): string | null {
  return keys === undefined
    ? null
    : JSON.stringify(keys.map((use) => (use.version === undefined ? { ttag: use.ttag } : { ttag: use.ttag, version: use.version })));
}

export function entryFromRow(row: EntryRow, atMs: number): AuditEntry {
  const hash = row.hash === null || row.hash === undefined ? {} : { hash: row.hash };
  const chain = row.writer === null ? {} : { writer: row.writer, seq: Number(row.seq), prev: row.prev ?? '', mac: row.mac ?? '', ...hash };
  return { ...recordFromRow(row, atMs), entry: row.entry as AuditEntryKind, ...chain };
}

export function checkpointFromRow(row: CheckpointRow, atMs: number): AuditCheckpoint {
  const hash = row.hash === null || row.hash === undefined ? {} : { hash: row.hash };
  return { writer: row.writer, seq: Number(row.seq), mac: row.mac, ...hash, at: atMs, keyId: row.key_id, signature: row.signature };
}

/**
 * The WHERE clause of a resolved query (filters and cursor); `1 = 1` when there is none. The cursor is a
 * row-value comparison, so both stores walk their (at DESC, id DESC) index.
 */
export function queryConditions(query: ResolvedAuditQuery, param: (value: unknown) => string, at: (ms: number) => unknown): string {
  const conditions: string[] = [];
  if (query.from !== undefined) conditions.push(`at >= ${param(at(query.from))}`);
  if (query.to !== undefined) conditions.push(`at <= ${param(at(query.to))}`);
  if (query.principal !== undefined) conditions.push(`principal = ${param(query.principal)}`);
  if (query.operation !== undefined) conditions.push(`operation = ${param(query.operation)}`);
  if (query.outcome !== undefined) conditions.push(`outcome = ${param(query.outcome)}`);
  if (query.object !== undefined) conditions.push(`object = ${param(query.object)}`);
  if (query.after !== undefined) conditions.push(`(at, id) < (${param(at(query.after.at))}, ${param(query.after.id)})`);
  return conditions.length === 0 ? '1 = 1' : conditions.join(' AND ');
}

/** A statement and its parameters. */
export interface Statement {
  readonly sql: string;
  readonly params: unknown[];
}

/**
 * The entries of a range: for each writer, every entry from its first seq stamped in the range to its
 * last (an entry's time does not follow its seq exactly), plus the unchained rows stamped in it; and the
 * checkpoints stamped in it. `placeholder` names the next parameter of a list (`?` or `$n`).
 */
export function chainRangeSql(
  tables: { entries: string; checkpoints: string },
  range: AuditChainRange,
  placeholder: (params: unknown[], value: unknown) => string,
  at: (ms: number) => unknown,
): { entries: Statement; checkpoints: Statement } {
  const inRange = (params: unknown[]) => {
    const bounds: string[] = [];
    if (range.from !== undefined) bounds.push(`at >= ${placeholder(params, at(range.from))}`);
    if (range.to !== undefined) bounds.push(`at <= ${placeholder(params, at(range.to))}`);
    return bounds.length === 0 ? '1 = 1' : bounds.join(' AND ');
  };
  const entryParams: unknown[] = [];
  const columns = ENTRY_COLUMNS.split(', ')
    .map((c) => `e.${c}`)
    .join(', ');
  const entrySql = `
    WITH bounds AS (SELECT writer, MIN(seq) AS lo, MAX(seq) AS hi FROM ${tables.entries} WHERE writer IS NOT NULL AND ${inRange(entryParams)} GROUP BY writer)
    SELECT ${columns} FROM ${tables.entries} e JOIN bounds b ON e.writer = b.writer AND e.seq BETWEEN b.lo AND b.hi
    UNION ALL SELECT ${ENTRY_COLUMNS} FROM ${tables.entries} WHERE writer IS NULL AND ${inRange(entryParams)}`;
  const checkpointParams: unknown[] = [];
  const checkpointSql = `SELECT ${CHECKPOINT_COLUMNS} FROM ${tables.checkpoints} WHERE ${inRange(checkpointParams)}`;
  return { entries: { sql: entrySql, params: entryParams }, checkpoints: { sql: checkpointSql, params: checkpointParams } };
}
