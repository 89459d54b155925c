import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { KeyUse } from '../../wire/key-view.js';
import type { MasterKeyring } from '../at-rest/master-keys.js';
import { ConfigError } from '../config-error.js';
import type {
  AliasQuery,
  AliasRow,
  CertificateRow,
  IdempotencyRow,
  KeyPageQuery,
  KeyRow,
  KeyVersionRow,
  PrincipalKind,
  PrincipalRow,
  RoleRow,
  TokenRow,
} from '../engine/engine-model.js';
import type { DurableEngineStore, SharedEngineStore } from '../engine/engine-store.port.js';
import { groupedBy, keyPageStatement } from './key-page-sql.js';
import { SerialUnits } from './serial-units.js';
import { readSnapshot, writeSnapshot } from './sqlite-engine-backup.js';
import {
  type AclEntryRecord,
  type AclRecord,
  type AliasRecord,
  aclRecordOf,
  aliasOf,
  type CertificateRecord,
  certificateOf,
  type IdempotencyRecord,
  idempotencyOf,
  idempotencyRecordOf,
  type KeyRecord,
  type KeyVersionRecord,
  type PrincipalRecord,
  type RoleRecord,
  roleOf,
  sealedKeyOf,
  sealedPrincipalOf,
  signingRecord,
  type TagsRecord,
  type TokenRecord,
  tokenOf,
} from './sqlite-engine-records.js';
import { migrateEngineSchema } from './sqlite-engine-schema.js';
import { keptMaterial, keyIdsInUse, keyVersionId, type Sealed, scrubFile, sealContext, sealRows } from './sqlite-engine-sealing.js';
import { prepare, type Statements } from './sqlite-engine-statements.js';
import type { StoreSnapshot } from './store-tables.js';

/**
 * The most memory SQLite's page cache of the store's connection holds, in KiB: SQLite's own default.
 * better-sqlite3 builds SQLite with 16,000 KiB instead, which the process fills as the token table
 * grows, and keeps (bench row `bytes per session, through POST /login`); a page the cache misses is
 * read from the operating system's file cache. The rows every operation reads are kept by the engine's
 * own cache in front of the store (cached-engine-store.ts).
 */
export const ENGINE_PAGE_CACHE_KIB = 2_000;

/** How many shapes of key-list query (key-page-sql.ts) a store keeps prepared. */
const PAGE_STATEMENTS_KEPT = 64;

/**
 * The engine's store in a SQLite file (better-sqlite3, WAL): principals, group memberships, role
 * definitions, keys with their ACLs and ACL revisions, certificates, token hashes and settings survive a restart.
 * `:memory:` gives a store that lives as long as the process.
 * A new file is created readable by its owner only. Key material, SRP verifiers and settings are
 * sealed under the keyring's master key (sqlite-engine-sealing.ts): a copy of the file alone yields
 * neither a key nor a verifier. Plaintext an earlier version left is sealed when the file opens.
 */
export class SqliteEngineStore implements SharedEngineStore, DurableEngineStore {
  readonly #db: Database.Database;
  readonly #sql: Statements;
  readonly #keyring: MasterKeyring;
  readonly #units = new SerialUnits();
  readonly #pages = new Map<string, Database.Statement>();

  constructor(path: string, keyring: MasterKeyring) {
    this.#keyring = keyring;
    if (path !== ':memory:' && !existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      closeSync(openSync(path, 'a', 0o600));
    }
    this.#db = new Database(path, { timeout: 5_000 });
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('secure_delete = ON');
    this.#db.pragma(`cache_size = -${ENGINE_PAGE_CACHE_KIB}`);
    try {
      migrateEngineSchema(this.#db);
      const missing = keyIdsInUse(this.#db).filter((id) => !keyring.has(id));
      if (missing.length > 0) throw new ConfigError(`${path}: sealed under master key ${missing.join(', ')}, which was not given`);
      if (sealRows(this.#db, keyring, true) > 0) scrubFile(this.#db);
    } catch (error) {
      this.#db.close();
      throw error;
    }
    this.#sql = prepare(this.#db);
  }

  /**
   * Rewraps every sealed value under the keyring's current key (one transaction: until it commits,
   * the old key still opens every row), then scrubs the file. Answers how many values were rewritten.
   */
  rewrap(): number {
    const count = sealRows(this.#db, this.#keyring, false);
    scrubFile(this.#db);
    return count;
  }

  /** The master key ids the rows are sealed under now. */
  keyIdsInUse(): Promise<string[]> {
    return this.#alone(() => keyIdsInUse(this.#db));
  }

  /** Every backed-up table, read in one unit: one read transaction (sqlite-engine-backup.ts). */
  snapshot(): Promise<StoreSnapshot> {
    return this.atomically(async () => readSnapshot(this.#db));
  }

  /** Writes a snapshot into this file if it is empty, in one unit (sqlite-engine-backup.ts). */
  restore(snapshot: StoreSnapshot): Promise<void> {
    return this.atomically(async () => writeSnapshot(this.#db, snapshot));
  }

  /**
   * One transaction per operation. Besides the one state and the writes landing together, it spares
   * the file's lock and WAL-index check that each statement would otherwise take and release on its own.
   */
  atomically<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#units.inside) return operation();
    return this.#units.run(async () => {
      this.#sql.begin.run();
      let result: T;
      try {
        result = await operation();
      } catch (error) {
        this.#commit();
        throw error;
      }
      this.#commit();
      return result;
    });
  }

  /**
   * A call made outside any unit is a unit of its own: it waits for the unit running now, rather than
   * land inside that unit's open transaction on the shared connection.
   */
  async #alone<T>(read: () => T): Promise<T> {
    return this.#units.inside ? read() : this.atomically(async () => read());
  }

  /** Commits what the operation wrote; SQLite may already have rolled it back after a failed statement. */
  #commit(): void {
    if (!this.#db.inTransaction) return;
    try {
      this.#sql.commit.run();
    } catch (error) {
      if (this.#db.inTransaction) this.#sql.rollback.run();
      throw error;
    }
  }

  /** The bound of this connection's page cache, in KiB (`ENGINE_PAGE_CACHE_KIB`), as SQLite reports it. */
  pageCacheKiB(): number {
    return -(this.#db.pragma('cache_size', { simple: true }) as number);
  }

  /** SQLite's `data_version`: it changes when another connection has committed to the file since the last look. */
  dataVersion(): Promise<number> {
    return this.#alone(() => (this.#sql.dataVersion.get() as { data_version: number }).data_version);
  }

  #open(keyId: string | null, value: Buffer, table: Sealed['table'], row: string): Buffer {
    return keyId === null ? value : this.#keyring.open(keyId, value, sealContext(table, row));
  }

  /** The row of a principal, its SRP verifier still sealed (sqlite-engine-records.ts). */
  #principal(record: PrincipalRecord | undefined): PrincipalRow | undefined {
    return sealedPrincipalOf(record, (keyId, sealed, row) => this.#open(keyId, sealed, 'principals', row));
  }

  principalByName(name: string): Promise<PrincipalRow | undefined> {
    return this.#alone(() => {
      return this.#principal(this.#sql.principalByName.get(name) as PrincipalRecord | undefined);
    });
  }

  principalById(principalId: string): Promise<PrincipalRow | undefined> {
    return this.#alone(() => {
      return this.#principal(this.#sql.principalById.get(principalId) as PrincipalRecord | undefined);
    });
  }

  putPrincipal(row: PrincipalRow): Promise<void> {
    return this.#alone(() => {
      const verifier = row.srp === undefined ? undefined : this.#keyring.seal(row.srp.verifier, sealContext('principals', row.principalId));
      this.#sql.putPrincipal.run({
        name: row.name,
        principal_id: row.principalId,
        kind: row.kind,
        system_id: row.systemId,
        display_name: row.displayName ?? null,
        disabled: row.disabled ? 1 : 0,
        roles: JSON.stringify(row.roles),
        srp_salt: row.srp?.salt ?? null,
        srp_verifier: verifier?.sealed ?? null,
        verifier_key_id: verifier?.keyId ?? null,
        sender_key: row.senderKey === undefined ? null : JSON.stringify(row.senderKey),
        delegates: row.delegates === undefined ? null : JSON.stringify(row.delegates),
        provisioned_by: row.provisionedBy ?? null,
        created_at: row.createdAt,
      });
    });
  }

  nextSystemId(): Promise<number> {
    return this.#alone(() => {
      return (this.#sql.nextSystemId.get() as { value: number }).value;
    });
  }

  principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): Promise<PrincipalRow[]> {
    return this.#alone(() => {
      const records = this.#sql.principalsAfter.all({ after: after ?? null, kind: kind ?? null, limit }) as PrincipalRecord[];
      return records.map((record) => this.#principal(record)!);
    });
  }

  /** The row goes, and with it (schema trigger) its memberships, tokens and enrolled certificates. */
  deletePrincipal(principalId: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deletePrincipal.run(principalId);
    });
  }

  groupIdsOf(memberId: string): Promise<string[]> {
    return this.#alone(() => {
      return (this.#sql.groupIdsOf.all(memberId) as { group_id: string }[]).map((row) => row.group_id);
    });
  }

  memberIdsOf(groupId: string): Promise<string[]> {
    return this.#alone(() => {
      return (this.#sql.memberIdsOf.all(groupId) as { member_id: string }[]).map((row) => row.member_id);
    });
  }

  putMembership(groupId: string, memberId: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.putMembership.run(groupId, memberId);
    });
  }

  deleteMembership(groupId: string, memberId: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteMembership.run(groupId, memberId);
    });
  }

  deleteMembershipsOf(principalId: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteMembershipsOf.run(principalId, principalId);
    });
  }

  role(name: string): Promise<RoleRow | undefined> {
    return this.#alone(() => {
      return roleOf(this.#sql.role.get(name) as RoleRecord | undefined);
    });
  }

  roles(): Promise<RoleRow[]> {
    return this.#alone(() => {
      return (this.#sql.roles.all() as RoleRecord[]).map((record) => roleOf(record)!);
    });
  }

  putRole(row: RoleRow): Promise<void> {
    return this.#alone(() => {
      this.#sql.putRole.run(row.name, JSON.stringify(row.operations));
    });
  }

  /**
   * The row of a key with its ACL, its material still sealed (sqlite-engine-records.ts): the read
   * cache keeps it so.
   */
  key(ttag: string): Promise<KeyRow | undefined> {
    return this.#alone(() => {
      const record = this.#sql.key.get(ttag) as KeyRecord | undefined;
      if (!record) return undefined;
      const acl = (this.#sql.keyAcl.all(ttag) as AclEntryRecord[]).map(aclRecordOf);
      const versions = this.#sql.keyVersions.all(ttag) as KeyVersionRecord[];
      const tags = Object.fromEntries(
        (this.#sql.keyTags.all(ttag) as { name: string; value: string }[]).map((tag) => [tag.name, tag.value]),
      );
      return this.#keyOf(record, acl, versions, tags);
    });
  }

  #keyOf(record: KeyRecord, acl: Iterable<AclRecord>, versions: KeyVersionRecord[], tags: TagsRecord): KeyRow {
    return sealedKeyOf(
      record,
      acl,
      (keyId, sealed, row) => this.#open(keyId, sealed, 'keys', row),
      versions,
      (keyId, sealed, row) => this.#open(keyId, sealed, 'key_versions', row),
      tags,
    );
  }

  /**
   * A page of the key list (key-page-sql.ts): the keys in one statement, then their ACL entries, versions
   * and tags in one statement each over the page's ttags, all in the one transaction of the unit.
   */
  keyPage(query: KeyPageQuery): Promise<KeyRow[]> {
    return this.#alone(() => {
      const { text, values } = keyPageStatement(query, 'sqlite');
      const records = this.#pageStatement(text).all(...values) as KeyRecord[];
      if (records.length === 0) return [];
      const ttags = JSON.stringify(records.map((record) => record.ttag));
      const acl = groupedBy(this.#sql.pageAcl.all(ttags) as (AclEntryRecord & { ttag: string })[]);
      const versions = groupedBy(this.#sql.pageVersions.all(ttags) as (KeyVersionRecord & { ttag: string })[]);
      const tags = groupedBy(this.#sql.pageTags.all(ttags) as { ttag: string; name: string; value: string }[]);
      return records.map((record) =>
        this.#keyOf(
          record,
          (acl.get(record.ttag) ?? []).map(aclRecordOf),
          versions.get(record.ttag) ?? [],
          Object.fromEntries((tags.get(record.ttag) ?? []).map((tag) => [tag.name, tag.value])),
        ),
      );
    });
  }

  /** The statement of one shape of page query, prepared once (a few shapes are in use at a time). */
  #pageStatement(text: string): Database.Statement {
    let statement = this.#pages.get(text);
    if (statement === undefined) {
      if (this.#pages.size >= PAGE_STATEMENTS_KEPT) this.#pages.delete(this.#pages.keys().next().value as string);
      statement = this.#db.prepare(text);
      this.#pages.set(text, statement);
    }
    return statement;
  }

  putKeyTag(ttag: string, name: string, value: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.putKeyTag.run(ttag, name, value);
    });
  }

  deleteKeyTag(ttag: string, name: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteKeyTag.run(ttag, name);
    });
  }

  /** Writes the key and replaces its whole ACL in one transaction, keeping the entries' order. */
  putKey(row: KeyRow): Promise<void> {
    return this.#alone(() => {
      const material = keptMaterial(row, this.#keyring);
      this.#db.transaction(() => {
        this.#sql.putKey.run({
          ttag: row.ttag,
          nid: row.nid,
          material: material.sealed,
          material_key_id: material.keyId,
          owner: row.owner,
          label: row.label ?? null,
          created_at: row.createdAt,
          expires_at: row.expiresAt ?? null,
          expired: row.expired ? 1 : 0,
          acl_revision: row.aclRevision,
          min_version: row.minVersion,
          rotation_period: row.rotationPeriod ?? null,
          disabled: row.disabled ? 1 : 0,
          deletion_at: row.deletionAt ?? null,
          deleted_at: row.deletedAt ?? null,
          ...signingRecord(row),
        });
        this.#sql.clearAcl.run(row.ttag);
        let position = 0;
        for (const [principalId, rights] of row.acl) {
          const conditions = row.aclConditions?.get(principalId);
          this.#sql.putAclEntry.run(
            row.ttag,
            principalId,
            JSON.stringify(rights),
            position++,
            conditions === undefined ? null : JSON.stringify(conditions),
          );
        }
      })();
    });
  }

  scheduledKeys(): Promise<string[]> {
    return this.#alone(() => (this.#sql.scheduledKeys.all() as { ttag: string }[]).map((row) => row.ttag));
  }

  keysDueForDeletion(now: number): Promise<string[]> {
    return this.#alone(() => (this.#sql.keysDueForDeletion.all(now) as { ttag: string }[]).map((row) => row.ttag));
  }

  /** The tombstone, its versions and its aliases in one transaction; with secure_delete, the erased pages are zeroed. */
  destroyKey(ttag: string, deletedAt: number): Promise<void> {
    return this.#alone(() => {
      this.#db.transaction(() => {
        this.#sql.putTombstone.run(deletedAt, ttag);
        this.#sql.deleteKeyVersions.run(ttag);
        this.#sql.deleteAliasesOf.run(ttag);
      })();
    });
  }

  unrecordedDestructions(now: number, limit: number): Promise<{ ttag: string; deletedAt: number }[]> {
    return this.#alone(() =>
      (this.#sql.unrecordedDestructions.all(now, limit) as { ttag: string; deleted_at: number }[]).map((row) => ({
        ttag: row.ttag,
        deletedAt: row.deleted_at,
      })),
    );
  }

  setDeletionRecord(ttag: string, until: number | null): Promise<void> {
    return this.#alone(() => {
      this.#sql.putDeletionRecord.run(until, ttag);
    });
  }

  recordKeyUse(ttag: string, at: number, operation: KeyUse): Promise<void> {
    return this.#alone(() => {
      this.#sql.putKeyUse.run(at, operation, ttag);
    });
  }

  alias(name: string): Promise<AliasRow | undefined> {
    return this.#alone(() => {
      const record = this.#sql.alias.get(name) as AliasRecord | undefined;
      return record === undefined ? undefined : aliasOf(record);
    });
  }

  putAlias(row: AliasRow): Promise<void> {
    return this.#alone(() => {
      this.#sql.putAlias.run({ name: row.name, ttag: row.ttag, created_at: row.createdAt, updated_at: row.updatedAt });
    });
  }

  deleteAlias(name: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteAlias.run(name);
    });
  }

  aliasCount(ttag: string): Promise<number> {
    return this.#alone(() => (this.#sql.aliasCount.get(ttag) as { count: number }).count);
  }

  aliasesAfter(query: AliasQuery): Promise<AliasRow[]> {
    return this.#alone(() => {
      const records = this.#sql.aliasesAfter.all({
        after: query.after ?? null,
        ttag: query.ttag ?? null,
        prefix: query.prefix ?? null,
        within: query.within === undefined ? null : JSON.stringify(query.within),
        reach: query.reachedBy === undefined ? null : JSON.stringify(query.reachedBy),
        limit: query.limit,
      }) as AliasRecord[];
      return records.map(aliasOf);
    });
  }

  /** Adds a version, its material sealed to '<ttag> <version>'; a version stored already is refused by the table. */
  putKeyVersion(ttag: string, version: KeyVersionRow): Promise<void> {
    return this.#alone(() => {
      const id = keyVersionId(ttag, version.version);
      const material = this.#keyring.seal(version.material, sealContext('key_versions', id));
      this.#sql.putKeyVersion.run({
        id,
        ttag,
        version: version.version,
        material: material.sealed,
        material_key_id: material.keyId,
        created_at: version.createdAt,
      });
    });
  }

  token(tokenHash: string): Promise<TokenRow | undefined> {
    return this.#alone(() => {
      const record = this.#sql.token.get(tokenHash) as TokenRecord | undefined;
      return record === undefined ? undefined : tokenOf(record);
    });
  }

  delegatedTokens(): Promise<TokenRow[]> {
    return this.#alone(() => {
      return (this.#sql.delegatedTokens.all() as TokenRecord[]).map(tokenOf);
    });
  }

  putToken(row: TokenRow): Promise<void> {
    return this.#alone(() => {
      this.#sql.putToken.run(
        row.tokenHash,
        row.principalId,
        row.issuedAt,
        row.expiresAt ?? null,
        row.scope === undefined ? null : JSON.stringify(row.scope),
        row.actingFor ?? null,
      );
    });
  }

  certificate(id: string): Promise<CertificateRow | undefined> {
    return this.#alone(() => {
      return certificateOf(this.#sql.certificate.get(id) as CertificateRecord | undefined);
    });
  }

  certificates(role: CertificateRow['role']): Promise<CertificateRow[]> {
    return this.#alone(() => {
      return (this.#sql.certificatesByRole.all(role) as CertificateRecord[]).map((record) => certificateOf(record)!);
    });
  }

  putCertificate(row: CertificateRow): Promise<void> {
    return this.#alone(() => {
      this.#sql.putCertificate.run(row.id, row.pem, row.role, row.principalId ?? null, row.createdAt);
    });
  }

  deleteCertificate(id: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteCertificate.run(id);
    });
  }

  deleteToken(tokenHash: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteToken.run(tokenHash);
    });
  }

  deleteTokensActingFor(serviceName: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteTokensActingFor.run(serviceName);
    });
  }

  deleteTokensOf(principalId: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteTokensOf.run(principalId);
    });
  }

  deleteExpiredTokens(now: number): Promise<number> {
    return this.#alone(() => {
      return this.#sql.deleteExpiredTokens.run(now).changes;
    });
  }

  idempotencyRecord(principalId: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.#alone(() => idempotencyOf(this.#sql.idempotencyRecord.get(principalId, key) as IdempotencyRecord | undefined));
  }

  putIdempotencyRecord(row: IdempotencyRow): Promise<void> {
    return this.#alone(() => {
      this.#sql.putIdempotencyRecord.run(idempotencyRecordOf(row));
    });
  }

  deleteIdempotencyRecord(principalId: string, key: string): Promise<void> {
    return this.#alone(() => {
      this.#sql.deleteIdempotencyRecord.run(principalId, key);
    });
  }

  deleteIdempotencyRecords(createdUpTo: number): Promise<number> {
    return this.#alone(() => this.#sql.deleteIdempotencyRecords.run(createdUpTo).changes);
  }

  setting(name: string): Promise<string | undefined> {
    return this.#alone(() => {
      const record = this.#sql.setting.get(name) as { value: string; value_key_id: string | null } | undefined;
      if (record === undefined || record.value_key_id === null) return record?.value;
      return this.#open(record.value_key_id, Buffer.from(record.value, 'base64'), 'settings', name).toString('utf8');
    });
  }

  putSetting(name: string, value: string): Promise<void> {
    return this.#alone(() => {
      const { keyId, sealed } = this.#keyring.seal(Buffer.from(value, 'utf8'), sealContext('settings', name));
      this.#sql.putSetting.run(name, sealed.toString('base64'), keyId);
    });
  }

  /** Closes the file once the units queued before have ended. */
  async close(): Promise<void> {
    await this.#units.run(async () => undefined);
    if (this.#db.open) this.#db.close();
    this.#units.close();
  }
}
