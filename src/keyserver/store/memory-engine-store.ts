import type { KeyUse } from '../../wire/key-view.js';
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
import type { EngineStore } from '../engine/engine-store.port.js';
import { byListOrder, isVisible, keyMatches } from '../engine/key-page-filter.js';
import { SerialUnits } from './serial-units.js';

/** The engine's store in memory: everything is gone when the process ends. */
export class MemoryEngineStore implements EngineStore {
  readonly #principals = new Map<string, PrincipalRow>();
  readonly #byId = new Map<string, string>();
  /** group id -> member ids */
  readonly #members = new Map<string, Set<string>>();
  readonly #roles = new Map<string, RoleRow>();
  readonly #keys = new Map<string, KeyRow>();
  /** Tombstones whose audit record is not stored yet: ttag -> until when a claim holds (0: unclaimed). */
  readonly #deletionRecords = new Map<string, number>();
  readonly #tokens = new Map<string, TokenRow>();
  readonly #settings = new Map<string, string>();
  readonly #certificates = new Map<string, CertificateRow>();
  /** `principalId key` -> record (a principal id holds no space). */
  readonly #idempotency = new Map<string, IdempotencyRow>();
  readonly #aliases = new Map<string, AliasRow>();
  #systemId = 1000;

  async principalByName(name: string): Promise<PrincipalRow | undefined> {
    return this.#principals.get(name);
  }

  async principalById(principalId: string): Promise<PrincipalRow | undefined> {
    const name = this.#byId.get(principalId);
    return name === undefined ? undefined : this.#principals.get(name);
  }

  async putPrincipal(row: PrincipalRow): Promise<void> {
    this.#principals.set(row.name, row);
    this.#byId.set(row.principalId, row.name);
  }

  async nextSystemId(): Promise<number> {
    this.#systemId += 1;
    return this.#systemId;
  }

  async principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): Promise<PrincipalRow[]> {
    const names = [...this.#principals.keys()].filter((name) => after === undefined || name > after).sort(byCodeUnit);
    const rows: PrincipalRow[] = [];
    for (const name of names) {
      if (rows.length >= limit) break;
      const row = this.#principals.get(name)!;
      if (kind === undefined || row.kind === kind) rows.push(row);
    }
    return rows;
  }

  async deletePrincipal(principalId: string): Promise<void> {
    const name = this.#byId.get(principalId);
    this.#byId.delete(principalId);
    if (name !== undefined) this.#principals.delete(name);
    await this.deleteMembershipsOf(principalId);
    await this.deleteTokensOf(principalId);
    for (const [id, row] of this.#certificates)
      if (row.role === 'enrolled' && row.principalId === principalId) this.#certificates.delete(id);
  }

  async groupIdsOf(memberId: string): Promise<string[]> {
    return [...this.#members].filter(([, members]) => members.has(memberId)).map(([groupId]) => groupId);
  }

  async memberIdsOf(groupId: string): Promise<string[]> {
    return [...(this.#members.get(groupId) ?? [])];
  }

  async putMembership(groupId: string, memberId: string): Promise<void> {
    const members = this.#members.get(groupId) ?? new Set<string>();
    members.add(memberId);
    this.#members.set(groupId, members);
  }

  async deleteMembership(groupId: string, memberId: string): Promise<void> {
    this.#members.get(groupId)?.delete(memberId);
  }

  async deleteMembershipsOf(principalId: string): Promise<void> {
    this.#members.delete(principalId);
    for (const members of this.#members.values()) members.delete(principalId);
  }

  async role(name: string): Promise<RoleRow | undefined> {
    return this.#roles.get(name);
  }

  async roles(): Promise<RoleRow[]> {
    return [...this.#roles.values()];
  }

  async putRole(row: RoleRow): Promise<void> {
    this.#roles.set(row.name, { name: row.name, operations: [...row.operations] });
  }

  async key(ttag: string): Promise<KeyRow | undefined> {
    return this.#keys.get(ttag);
  }

  /** The row as given, but its later versions, its tags and its last use as stored. */
  async putKey(row: KeyRow): Promise<void> {
    const stored = this.#keys.get(row.ttag);
    const { lastUsedAt: _at, lastUsedOperation: _operation, ...fields } = row;
    const lastUse = stored?.lastUsedAt === undefined ? {} : { lastUsedAt: stored.lastUsedAt, lastUsedOperation: stored.lastUsedOperation! };
    this.#keys.set(row.ttag, { ...fields, laterVersions: stored?.laterVersions ?? [], tags: stored?.tags ?? {}, ...lastUse });
  }

  async recordKeyUse(ttag: string, at: number, operation: KeyUse): Promise<void> {
    const key = this.#keys.get(ttag);
    if (key !== undefined) this.#keys.set(ttag, { ...key, lastUsedAt: at, lastUsedOperation: operation });
  }

  async alias(name: string): Promise<AliasRow | undefined> {
    return this.#aliases.get(name);
  }

  async putAlias(row: AliasRow): Promise<void> {
    this.#aliases.set(row.name, { ...row });
  }

  async deleteAlias(name: string): Promise<void> {
    this.#aliases.delete(name);
  }

  async aliasCount(ttag: string): Promise<number> {
    return [...this.#aliases.values()].filter((row) => row.ttag === ttag).length;
  }

  async aliasesAfter(query: AliasQuery): Promise<AliasRow[]> {
    const reaches = (row: AliasRow) => {
      const key = this.#keys.get(row.ttag);
      if (key === undefined || query.reachedBy === undefined) return key !== undefined;
      return isVisible(key, query.reachedBy);
    };
    return [...this.#aliases.values()]
      .filter((row) => query.after === undefined || row.name > query.after)
      .filter((row) => query.ttag === undefined || row.ttag === query.ttag)
      .filter((row) => query.prefix === undefined || row.name.startsWith(query.prefix))
      .filter((row) => query.within === undefined || query.within.includes(row.ttag))
      .filter(reaches)
      .sort((a, b) => byCodeUnit(a.name, b.name))
      .slice(0, query.limit);
  }

  /** Every key checked against the query (key-page-filter.ts), then sorted: a store for tests and development. */
  async keyPage(query: KeyPageQuery): Promise<KeyRow[]> {
    return [...this.#keys.values()]
      .filter((key) => keyMatches(key, query))
      .sort(byListOrder)
      .slice(0, query.limit);
  }

  async putKeyTag(ttag: string, name: string, value: string): Promise<void> {
    const key = this.#keys.get(ttag);
    if (key === undefined) throw new Error(`no key ${ttag} to tag`);
    this.#keys.set(ttag, { ...key, tags: { ...key.tags, [name]: value } });
  }

  async deleteKeyTag(ttag: string, name: string): Promise<void> {
    const key = this.#keys.get(ttag);
    if (key === undefined || !Object.hasOwn(key.tags, name)) return;
    const { [name]: _gone, ...tags } = key.tags;
    this.#keys.set(ttag, { ...key, tags });
  }

  async putKeyVersion(ttag: string, version: KeyVersionRow): Promise<void> {
    const key = this.#keys.get(ttag);
    if (key === undefined) throw new Error(`no key ${ttag} to add a version to`);
    if (key.laterVersions.some((stored) => stored.version === version.version))
      throw new Error(`key version ${version.version} is stored already`);
    this.#keys.set(ttag, { ...key, laterVersions: [...key.laterVersions, { ...version, material: Buffer.from(version.material) }] });
  }

  async keysDueForDeletion(now: number): Promise<string[]> {
    return [...this.#keys.values()]
      .filter((row) => row.deletionAt !== undefined && row.deletedAt === undefined && row.deletionAt <= now)
      .map((row) => row.ttag)
      .sort(byCodeUnit);
  }

  /** A memory store keeps no alias (docs/spec.md §4.23 item 3 lives in the durable stores' table). */
  async destroyKey(ttag: string, deletedAt: number): Promise<void> {
    const key = this.#keys.get(ttag);
    if (key === undefined) throw new Error(`no key ${ttag} to destroy`);
    key.material.fill(0);
    for (const version of key.laterVersions) version.material.fill(0);
    this.#keys.set(ttag, { ...key, material: Buffer.alloc(0), laterVersions: [], deletedAt });
    this.#deletionRecords.set(ttag, 0);
  }

  async unrecordedDestructions(now: number, limit: number): Promise<{ ttag: string; deletedAt: number }[]> {
    return [...this.#deletionRecords]
      .filter(([, until]) => until <= now)
      .map(([ttag]) => ({ ttag, deletedAt: this.#keys.get(ttag)?.deletedAt ?? 0 }))
      .sort((a, b) => byCodeUnit(a.ttag, b.ttag))
      .slice(0, limit);
  }

  async setDeletionRecord(ttag: string, until: number | null): Promise<void> {
    if (until === null) this.#deletionRecords.delete(ttag);
    else if (this.#keys.get(ttag)?.deletedAt !== undefined) this.#deletionRecords.set(ttag, until);
  }

  async scheduledKeys(): Promise<string[]> {
    return [...this.#keys.values()]
      .filter((row) => row.rotationPeriod !== undefined && !row.expired)
      .map((row) => row.ttag)
      .sort(byCodeUnit);
  }

  async token(tokenHash: string): Promise<TokenRow | undefined> {
    return this.#tokens.get(tokenHash);
  }

  /** Kept as one object literal of the row's fields (one per live token: no property store beside it). */
  async putToken(row: TokenRow): Promise<void> {
    const kept: { -readonly [K in keyof TokenRow]: TokenRow[K] } = {
      tokenHash: row.tokenHash,
      principalId: row.principalId,
      issuedAt: row.issuedAt,
      expiresAt: row.expiresAt,
    };
    if (row.scope !== undefined) kept.scope = row.scope;
    if (row.actingFor !== undefined) kept.actingFor = row.actingFor;
    this.#tokens.set(row.tokenHash, kept);
  }

  async deleteToken(tokenHash: string): Promise<void> {
    this.#tokens.delete(tokenHash);
  }

  async delegatedTokens(): Promise<TokenRow[]> {
    return [...this.#tokens.values()].filter((row) => row.actingFor !== undefined);
  }

  async deleteTokensActingFor(serviceName: string): Promise<void> {
    for (const [hash, row] of this.#tokens) if (row.actingFor === serviceName) this.#tokens.delete(hash);
  }

  async deleteTokensOf(principalId: string): Promise<void> {
    for (const [hash, row] of this.#tokens) if (row.principalId === principalId) this.#tokens.delete(hash);
  }

  async certificate(id: string): Promise<CertificateRow | undefined> {
    return this.#certificates.get(id);
  }

  async certificates(role: CertificateRow['role']): Promise<CertificateRow[]> {
    return [...this.#certificates.values()].filter((row) => row.role === role);
  }

  async putCertificate(row: CertificateRow): Promise<void> {
    this.#certificates.set(row.id, row);
  }

  async deleteCertificate(id: string): Promise<void> {
    this.#certificates.delete(id);
  }

  async deleteExpiredTokens(now: number): Promise<number> {
    let removed = 0;
    for (const [hash, row] of this.#tokens) {
      if (row.expiresAt !== undefined && row.expiresAt <= now) {
        this.#tokens.delete(hash);
        removed += 1;
      }
    }
    return removed;
  }

  async idempotencyRecord(principalId: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.#idempotency.get(`${principalId} ${key}`);
  }

  async putIdempotencyRecord(row: IdempotencyRow): Promise<void> {
    this.#idempotency.set(`${row.principalId} ${row.key}`, row);
  }

  async deleteIdempotencyRecord(principalId: string, key: string): Promise<void> {
    this.#idempotency.delete(`${principalId} ${key}`);
  }

  async deleteIdempotencyRecords(createdUpTo: number): Promise<number> {
    let removed = 0;
    for (const [id, row] of this.#idempotency) {
      if (row.createdAt <= createdUpTo) {
        this.#idempotency.delete(id);
        removed += 1;
      }
    }
    return removed;
  }

  async setting(name: string): Promise<string | undefined> {
    return this.#settings.get(name);
  }

  async putSetting(name: string, value: string): Promise<void> {
    this.#settings.set(name, value);
  }

  readonly #units = new SerialUnits();

  /**
   * Units run one after another. A call made outside any unit is not queued: it reads or writes at
   * once, and may be seen by a unit waiting in between (this store serves tests and development).
   */
  async atomically<T>(operation: () => Promise<T>): Promise<T> {
    return this.#units.inside ? operation() : this.#units.run(operation);
  }

  async close(): Promise<void> {
    this.#units.close();
  }
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
