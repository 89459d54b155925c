import { STORE_TABLES, type StoredRow, type StoreSnapshot, type StoreTable, TABLE_ORDER } from './store-tables.js';

/** How many unwritable rows a refusal names; the count says how many more there are. */
const NAMED_MAX = 5;

/** The columns that name a row of each table in a message: never a sealed value, a verifier or a label. */
const ROW_NAMES: { readonly [table in StoreTable]: readonly string[] } = {
  principals: ['name'],
  memberships: ['group_id', 'member_id'],
  roles: ['name'],
  keys: ['ttag'],
  key_versions: ['ttag', 'version'],
  key_acl: ['ttag', 'principal_id'],
  key_tags: ['ttag', 'name'],
  aliases: ['name'],
  certificates: ['id'],
  settings: ['name'],
  counters: ['name'],
  idempotency: ['principal_id', 'idem_key'],
};

/** A row as a message names it: its table and the columns that identify it (`keys ttag=...`). */
export function describeStoredRow(table: StoreTable, row: StoredRow): string {
  return `${table} ${ROW_NAMES[table].map((column) => `${column}=${JSON.stringify(String(row[column] ?? ''))}`).join(' ')}`;
}

/**
 * The rows of a snapshot PostgreSQL cannot write, named (table, identifying columns, field): a text
 * value holding U+0000, which PostgreSQL text never holds (a SQLite store may). Undefined when there
 * are none. The value itself is never shown.
 */
export function unwritableInPostgres(snapshot: StoreSnapshot): string | undefined {
  const named: string[] = [];
  let count = 0;
  for (const table of TABLE_ORDER) {
    for (const row of snapshot.tables[table]) {
      const fields = STORE_TABLES[table].filter((column) => typeof row[column] === 'string' && (row[column] as string).includes('\u0000'));
      if (fields.length === 0) continue;
      count += 1;
      if (named.length < NAMED_MAX) named.push(`${describeStoredRow(table, row)} field ${fields.join(', ')}`);
    }
  }
  if (count === 0) return undefined;
  const more = count > named.length ? `, and ${count - named.length} more` : '';
  return `${count === 1 ? 'a row holds' : `${count} rows hold`} a NUL character (U+0000), which PostgreSQL text cannot hold: ${named.join('; ')}${more}`;
}
