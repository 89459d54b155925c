import type { Database } from 'better-sqlite3';
import type { MasterKeyring } from '../at-rest/master-keys.js';

/**
 * The sealed columns of the engine's SQLite file: each holds AES-256-GCM under a master key whose id
 * sits in the column beside it, with the row's identity as additional data (a value moved to another
 * row does not open).
 */
export const SEALED = [
  { table: 'principals', column: 'srp_verifier', keyId: 'verifier_key_id', row: 'principal_id', text: false, live: 'TRUE' },
  // A tombstone's material is empty and unsealed (docs/spec.md §4.23 item 5): not plaintext to seal.
  { table: 'keys', column: 'material', keyId: 'material_key_id', row: 'ttag', text: false, live: 'deleted_at IS NULL' },
  { table: 'key_versions', column: 'material', keyId: 'material_key_id', row: 'id', text: false, live: 'TRUE' },
  { table: 'settings', column: 'value', keyId: 'value_key_id', row: 'name', text: true, live: 'TRUE' },
] as const;

export type Sealed = (typeof SEALED)[number];

export function sealContext(table: Sealed['table'], row: string): string {
  return `keygate ${table} ${row}`;
}

/** The id of a key version's row, '<ttag> <version>': its sealed material names both (a ttag holds no space). */
export function keyVersionId(ttag: string, version: number): string {
  return `${ttag} ${version}`;
}

/**
 * A key row's material as a store writes it: sealed to its ttag, or, on a tombstone (docs/spec.md §4.23
 * item 5), empty and unsealed: a destroyed key has nothing left to seal.
 */
export function keptMaterial(
  row: { readonly ttag: string; readonly material: Buffer; readonly deletedAt?: number },
  keyring: MasterKeyring,
): { sealed: Buffer; keyId: string | null } {
  if (row.deletedAt !== undefined) return { sealed: Buffer.alloc(0), keyId: null };
  return keyring.seal(row.material, sealContext('keys', row.ttag));
}

/** The master key ids in use, as a query (the same in SQLite and PostgreSQL): one row `{ id }` per key. */
export const KEY_IDS_IN_USE = SEALED.map(({ table, keyId }) => `SELECT ${keyId} AS id FROM ${table} WHERE ${keyId} IS NOT NULL`).join(
  ' UNION ',
);

/** Every master key id the file's rows are sealed under. */
export function keyIdsInUse(db: Database): string[] {
  return (db.prepare(KEY_IDS_IN_USE).all() as { id: string }[]).map((row) => row.id);
}

/**
 * Seals every value not yet under the keyring's current key: plaintext an earlier version left
 * (`onlyPlaintext`), or, for a rotation, every value under an older key. One transaction; answers
 * how many values were rewritten.
 */
export function sealRows(db: Database, keyring: MasterKeyring, onlyPlaintext: boolean): number {
  let count = 0;
  db.transaction(() => {
    for (const spec of SEALED) count += sealColumn(db, keyring, spec, onlyPlaintext);
  })();
  return count;
}

function sealColumn(db: Database, keyring: MasterKeyring, spec: Sealed, onlyPlaintext: boolean): number {
  const { table, column, keyId, row, live } = spec;
  const which = onlyPlaintext ? `${keyId} IS NULL` : `(${keyId} IS NULL OR ${keyId} <> @current)`;
  const rows = db
    .prepare(
      `SELECT ${row} AS row, ${column} AS value, ${keyId} AS keyId FROM ${table} WHERE ${column} IS NOT NULL AND ${live} AND ${which}`,
    )
    .all({ current: keyring.current.id }) as { row: string; value: Buffer | string; keyId: string | null }[];
  const update = db.prepare(`UPDATE ${table} SET ${column} = ?, ${keyId} = ? WHERE ${row} = ?`);
  for (const entry of rows) {
    const { value, keyId: id } = resealed(keyring, spec, entry);
    update.run(value, id, entry.row);
  }
  return rows.length;
}

/** One stored value (plaintext, or sealed under any key of the ring) sealed under the current key, as stored. */
export function resealed(
  keyring: MasterKeyring,
  spec: Sealed,
  entry: { row: string; value: Buffer | string; keyId: string | null },
): { value: Buffer | string; keyId: string } {
  const context = sealContext(spec.table, entry.row);
  const stored = typeof entry.value === 'string' ? Buffer.from(entry.value, entry.keyId === null ? 'utf8' : 'base64') : entry.value;
  const plaintext = entry.keyId === null ? stored : keyring.open(entry.keyId, stored, context);
  const { keyId, sealed } = keyring.seal(plaintext, context);
  return { value: spec.text ? sealed.toString('base64') : sealed, keyId };
}

/**
 * After plaintext or an old key's values were rewritten: no earlier page image may keep them.
 * VACUUM rebuilds the file (with secure_delete, freed pages are zeroed), and the WAL is emptied.
 */
export function scrubFile(db: Database): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
