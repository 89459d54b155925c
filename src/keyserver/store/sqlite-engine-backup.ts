import type { Database } from 'better-sqlite3';
import { STORE_TABLES, type StoredRow, type StoreSnapshot, type StoreTable, TABLE_ORDER } from './store-tables.js';

/** The tables whose rows make a store "not empty": what the engine writes once it has served. */
const CONTENT_TABLES: readonly StoreTable[] = [
  'principals',
  'keys',
  'certificates',
  'roles',
  'settings',
  'memberships',
  'key_acl',
  'key_versions',
  'key_tags',
  'aliases',
];

/** Each table's primary key: rows are read in its order, so one state of a store gives one file. */
const ORDER_BY: Readonly<Record<StoreTable, string>> = {
  principals: 'name',
  memberships: 'group_id, member_id',
  roles: 'name',
  keys: 'ttag',
  key_versions: 'id',
  key_acl: 'ttag, position',
  key_tags: 'ttag, name',
  aliases: 'name',
  certificates: 'id',
  settings: 'name',
  counters: 'name',
  idempotency: 'principal_id, idem_key',
};

/**
 * Every backed-up table of a SQLite engine file, read in one read transaction (or inside the one the
 * caller holds): in WAL mode the reader sees one committed state of the file throughout, while the key
 * server that owns it goes on writing.
 */
export function readSnapshot(db: Database): StoreSnapshot {
  const read = db.transaction(() => {
    const tables = {} as Record<StoreTable, StoredRow[]>;
    for (const table of TABLE_ORDER) {
      tables[table] = db.prepare(`SELECT ${STORE_TABLES[table].join(', ')} FROM ${table} ORDER BY ${ORDER_BY[table]}`).all() as StoredRow[];
    }
    return { tables };
  });
  return read.deferred();
}

/**
 * Writes a snapshot into an empty SQLite engine file, in one transaction (or a savepoint of the one the
 * caller holds, rolled back whole on a refusal): a store that already holds
 * a principal, key, certificate, role, setting, membership or ACL entry is refused before anything is
 * written. The counters (the next system id) replace the defaults a new file starts with.
 */
export function writeSnapshot(db: Database, snapshot: StoreSnapshot): void {
  db.transaction(() => {
    const held = CONTENT_TABLES.map(
      (table) => [table, (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n] as const,
    ).filter(([, count]) => count > 0);
    if (held.length > 0) {
      throw new Error(
        `the store is not empty (it holds ${held.map(([table, count]) => `${count} ${table}`).join(', ')}): restore into a new store`,
      );
    }
    for (const table of TABLE_ORDER) {
      const columns = STORE_TABLES[table];
      const verb = table === 'counters' ? 'INSERT OR REPLACE' : 'INSERT';
      const insert = db.prepare(
        `${verb} INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
      );
      for (const row of snapshot.tables[table]) insert.run(row);
    }
  }).immediate();
}
