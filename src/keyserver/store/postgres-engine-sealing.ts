import type pg from 'pg';
import type { MasterKeyring } from '../at-rest/master-keys.js';
import type { Unit } from './postgres-transactions.js';
import { KEY_IDS_IN_USE, resealed, SEALED } from './sqlite-engine-sealing.js';

/** The master keys a rotation retired (schema version 4): no row may be sealed under one again. */
export async function pgRetiredKeyIds(client: pg.Pool): Promise<string[]> {
  return (await client.query<{ id: string }>('SELECT id FROM retired_master_keys')).rows.map((row) => row.id);
}

/**
 * Retires every key of `keyring` but its current one, in the rotation's transaction: from its commit
 * on, a daemon still holding an old key fails each sealing write (the schema's trigger) rather than
 * storing a row no one holding the rotated key could open. The current key is live again if a
 * rotation retired it before.
 */
export async function pgRetireOldKeys(client: Unit, keyring: MasterKeyring): Promise<void> {
  await client.query('DELETE FROM retired_master_keys WHERE id = $1', [keyring.current.id]);
  const old = keyring.ids.filter((id) => id !== keyring.current.id);
  if (old.length > 0) await client.query('INSERT INTO retired_master_keys (id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [old]);
}

/** Every master key id the store's rows are sealed under. */
export async function pgKeyIdsInUse(client: pg.Pool): Promise<string[]> {
  return (await client.query<{ id: string }>(KEY_IDS_IN_USE)).rows.map((row) => row.id);
}

/**
 * Seals every value not under the keyring's current key anew (a rotation), in the caller's
 * transaction, as the SQLite store does; answers how many values were rewritten.
 */
export async function pgResealRows(client: Unit, keyring: MasterKeyring): Promise<number> {
  let count = 0;
  for (const spec of SEALED) {
    const { table, column, keyId, row, live } = spec;
    const found = await client.query<{ row: string; value: Buffer | string; keyId: string | null }>(
      `SELECT ${row} AS row, ${column} AS value, ${keyId} AS "keyId" FROM ${table}
       WHERE ${column} IS NOT NULL AND ${live} AND (${keyId} IS NULL OR ${keyId} <> $1) FOR UPDATE`,
      [keyring.current.id],
    );
    for (const entry of found.rows) {
      const { value, keyId: id } = resealed(keyring, spec, entry);
      await client.query(`UPDATE ${table} SET ${column} = $1, ${keyId} = $2 WHERE ${row} = $3`, [value, id, entry.row]);
    }
    count += found.rows.length;
  }
  return count;
}
