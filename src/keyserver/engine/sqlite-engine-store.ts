import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Right } from '../../wire/acl.js';
import type { CertificateRow, KeyRow, PrincipalKind, PrincipalRow, RoleRow, TokenRow } from './engine-model.js';
import type { EngineStore } from './engine-store.port.js';
import {
  certificateOf,
  principalOf,
  roleOf,
  type CertificateRecord,
  type KeyRecord,
  type PrincipalRecord,
  type RoleRecord,
  type TokenRecord,
} from './sqlite-engine-records.js';
import { migrateEngineSchema } from './sqlite-engine-schema.js';
import { prepare, type Statements } from './sqlite-engine-statements.js';

/**
 * The engine's store in a SQLite file (better-sqlite3, WAL): principals, group memberships, role
 * definitions, keys with their ACLs, certificates, token hashes and settings survive a restart.
 * `:memory:` gives a store that lives as long as the process.
 * A new file is created readable by its owner only (it holds key material).
 */
export class SqliteEngineStore implements EngineStore {
  readonly #db: Database.Database;
  readonly #sql: Statements;

  constructor(path: string) {
    if (path !== ':memory:' && !existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      closeSync(openSync(path, 'a', 0o600));
    }
    this.#db = new Database(path, { timeout: 5_000 });
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('foreign_keys = ON');
    migrateEngineSchema(this.#db);
    this.#sql = prepare(this.#db);
  }

  principalByName(name: string): PrincipalRow | undefined {
    return principalOf(this.#sql.principalByName.get(name) as PrincipalRecord | undefined);
  }

  principalById(principalId: string): PrincipalRow | undefined {
    return principalOf(this.#sql.principalById.get(principalId) as PrincipalRecord | undefined);
  }

  putPrincipal(row: PrincipalRow): void {
    this.#sql.putPrincipal.run({
      name: row.name,
      principal_id: row.principalId,
      kind: row.kind,
      system_id: row.systemId,
      display_name: row.displayName ?? null,
      disabled: row.disabled ? 1 : 0,
      roles: JSON.stringify(row.roles),
      srp_salt: row.srp?.salt ?? null,
      srp_verifier: row.srp?.verifier ?? null,
      sender_key: row.senderKey === undefined ? null : JSON.stringify(row.senderKey),
      delegates: row.delegates === undefined ? null : JSON.stringify(row.delegates),
      provisioned_by: row.provisionedBy ?? null,
      created_at: row.createdAt,
    });
  }

  nextSystemId(): number {
    return (this.#sql.nextSystemId.get() as { value: number }).value;
  }

  principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): PrincipalRow[] {
    const records = this.#sql.principalsAfter.all({ after: after ?? null, kind: kind ?? null, limit }) as PrincipalRecord[];
    return records.map((record) => principalOf(record)!);
  }

  /** The row goes, and with it (schema trigger) its memberships, tokens and enrolled certificates. */
  deletePrincipal(principalId: string): void {
    this.#sql.deletePrincipal.run(principalId);
  }

  groupIdsOf(memberId: string): string[] {
    return (this.#sql.groupIdsOf.all(memberId) as { group_id: string }[]).map((row) => row.group_id);
  }

  memberIdsOf(groupId: string): string[] {
    return (this.#sql.memberIdsOf.all(groupId) as { member_id: string }[]).map((row) => row.member_id);
  }

  putMembership(groupId: string, memberId: string): void {
    this.#sql.putMembership.run(groupId, memberId);
  }

  deleteMembership(groupId: string, memberId: string): void {
    this.#sql.deleteMembership.run(groupId, memberId);
  }

  deleteMembershipsOf(principalId: string): void {
    this.#sql.deleteMembershipsOf.run(principalId, principalId);
  }

  role(name: string): RoleRow | undefined {
    return roleOf(this.#sql.role.get(name) as RoleRecord | undefined);
  }

  roles(): RoleRow[] {
    return (this.#sql.roles.all() as RoleRecord[]).map((record) => roleOf(record)!);
  }

  putRole(row: RoleRow): void {
    this.#sql.putRole.run(row.name, JSON.stringify(row.operations));
  }

  key(ttag: string): KeyRow | undefined {
    const record = this.#sql.key.get(ttag) as KeyRecord | undefined;
    if (!record) return undefined;
    const acl = new Map<string, readonly Right[]>();
    for (const entry of this.#sql.keyAcl.all(ttag) as { principal_id: string; rights: string }[]) {
      acl.set(entry.principal_id, JSON.parse(entry.rights) as Right[]);
    }
    return {
      ttag: record.ttag,
      nid: record.nid,
      material: record.material,
      owner: record.owner,
      acl,
      createdAt: record.created_at,
      expired: record.expired === 1,
      ...(record.label === null ? {} : { label: record.label }),
      ...(record.expires_at === null ? {} : { expiresAt: record.expires_at }),
    };
  }

  /** Writes the key and replaces its whole ACL in one transaction, keeping the entries' order. */
  putKey(row: KeyRow): void {
    this.#db.transaction(() => {
      this.#sql.putKey.run({
        ttag: row.ttag,
        nid: row.nid,
        material: row.material,
        owner: row.owner,
        label: row.label ?? null,
        created_at: row.createdAt,
        expires_at: row.expiresAt ?? null,
        expired: row.expired ? 1 : 0,
      });
      this.#sql.clearAcl.run(row.ttag);
      let position = 0;
      for (const [principalId, rights] of row.acl) {
        this.#sql.putAclEntry.run(row.ttag, principalId, JSON.stringify(rights), position++);
      }
    })();
  }

  token(tokenHash: string): TokenRow | undefined {
    const record = this.#sql.token.get(tokenHash) as TokenRecord | undefined;
    if (!record) return undefined;
    return {
      tokenHash: record.token_hash,
      principalId: record.principal_id,
      issuedAt: record.issued_at,
      expiresAt: record.expires_at ?? undefined,
      ...(record.scope === null ? {} : { scope: JSON.parse(record.scope) as TokenRow['scope'] }),
      ...(record.acting_for === null ? {} : { actingFor: record.acting_for }),
    };
  }

  putToken(row: TokenRow): void {
    this.#sql.putToken.run(
      row.tokenHash,
      row.principalId,
      row.issuedAt,
      row.expiresAt ?? null,
      row.scope === undefined ? null : JSON.stringify(row.scope),
      row.actingFor ?? null,
    );
  }

  certificate(id: string): CertificateRow | undefined {
    return certificateOf(this.#sql.certificate.get(id) as CertificateRecord | undefined);
  }

  certificates(role: CertificateRow['role']): CertificateRow[] {
    return (this.#sql.certificatesByRole.all(role) as CertificateRecord[]).map((record) => certificateOf(record)!);
  }

  putCertificate(row: CertificateRow): void {
    this.#sql.putCertificate.run(row.id, row.pem, row.role, row.principalId ?? null, row.createdAt);
  }

  deleteCertificate(id: string): void {
    this.#sql.deleteCertificate.run(id);
  }

  deleteToken(tokenHash: string): void {
    this.#sql.deleteToken.run(tokenHash);
  }

  deleteTokensActingFor(serviceName: string): void {
    this.#sql.deleteTokensActingFor.run(serviceName);
  }

  deleteTokensOf(principalId: string): void {
    this.#sql.deleteTokensOf.run(principalId);
  }

  deleteExpiredTokens(now: number): number {
    return this.#sql.deleteExpiredTokens.run(now).changes;
  }

  setting(name: string): string | undefined {
    return (this.#sql.setting.get(name) as { value: string } | undefined)?.value;
  }

  putSetting(name: string, value: string): void {
    this.#sql.putSetting.run(name, value);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
