import { STORE_TABLES, type StoredRow, type StoredValue, type StoreSnapshot, type StoreTable } from '../store/store-tables.js';
import { BackupError } from './backup-error.js';

/** A value as a backup line holds it: bytes as `{ "base64": ... }`, everything else as JSON has it. */
type LineValue = string | number | null | { readonly base64: string };

/** The columns naming the master key each sealed column is under (store-tables.ts). */
const KEY_ID_COLUMNS: readonly (readonly [StoreTable, string])[] = [
  ['principals', 'verifier_key_id'],
  ['keys', 'material_key_id'],
  ['key_versions', 'material_key_id'],
  ['settings', 'value_key_id'],
];

/** A row's values in its table's column order. */
export function valuesOf(table: StoreTable, row: StoredRow): LineValue[] {
  return STORE_TABLES[table].map((column) => {
    const value = row[column] ?? null;
    return Buffer.isBuffer(value) ? { base64: value.toString('base64') } : value;
  });
}

/** A row back from its values; a value of a type no column holds is refused. */
export function rowOf(table: StoreTable, values: readonly unknown[], columns: readonly string[] = STORE_TABLES[table]): StoredRow {
  if (values.length !== columns.length)
    throw new BackupError(`holds a ${table} row of ${values.length} values; the table has ${columns.length} columns`);
  return Object.fromEntries(columns.map((column, i) => [column, storedValue(table, column, values[i])]));
}

function storedValue(table: StoreTable, column: string, value: unknown): StoredValue {
  if (value === null || typeof value === 'string' || Number.isSafeInteger(value)) return value as StoredValue;
  const base64 = (value as { base64?: unknown } | undefined)?.base64;
  if (typeof base64 === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return Buffer.from(base64, 'base64');
  throw new BackupError(`holds a ${table} row whose ${column} is not a stored value`);
}

/** Every master key id a snapshot's sealed columns name, in order of first appearance. */
export function sealedKeyIds(snapshot: StoreSnapshot): string[] {
  const ids = new Set<string>();
  for (const [table, column] of KEY_ID_COLUMNS) {
    for (const row of snapshot.tables[table]) {
      const id = row[column];
      if (typeof id === 'string') ids.add(id);
    }
  }
  return [...ids];
}
