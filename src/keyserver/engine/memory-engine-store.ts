import type { EngineStore } from './engine-store.port.js';
import type { CertificateRow, KeyRow, PrincipalKind, PrincipalRow, RoleRow, TokenRow } from './engine-model.js';

/** The engine's store in memory: everything is gone when the process ends. */
export class MemoryEngineStore implements EngineStore {
  readonly #principals = new Map<string, PrincipalRow>();
  readonly #byId = new Map<string, string>();
  /** group id -> member ids */
  readonly #members = new Map<string, Set<string>>();
  readonly #roles = new Map<string, RoleRow>();
  readonly #keys = new Map<string, KeyRow>();
  readonly #tokens = new Map<string, TokenRow>();
  readonly #settings = new Map<string, string>();
  readonly #certificates = new Map<string, CertificateRow>();
  #systemId = 1000;

  principalByName(name: string): PrincipalRow | undefined {
    return this.#principals.get(name);
  }

  principalById(principalId: string): PrincipalRow | undefined {
    const name = this.#byId.get(principalId);
    return name === undefined ? undefined : this.#principals.get(name);
  }

  putPrincipal(row: PrincipalRow): void {
    this.#principals.set(row.name, row);
    this.#byId.set(row.principalId, row.name);
  }

  nextSystemId(): number {
    this.#systemId += 1;
    return this.#systemId;
  }

  principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): PrincipalRow[] {
    const names = [...this.#principals.keys()].filter((name) => after === undefined || name > after).sort(byCodeUnit);
    const rows: PrincipalRow[] = [];
    for (const name of names) {
      if (rows.length >= limit) break;
      const row = this.#principals.get(name)!;
      if (kind === undefined || row.kind === kind) rows.push(row);
    }
    return rows;
  }

  deletePrincipal(principalId: string): void {
    const name = this.#byId.get(principalId);
    this.#byId.delete(principalId);
    if (name !== undefined) this.#principals.delete(name);
    this.deleteMembershipsOf(principalId);
    this.deleteTokensOf(principalId);
    for (const [id, row] of this.#certificates) if (row.role === 'enrolled' && row.principalId === principalId) this.#certificates.delete(id);
  }

  groupIdsOf(memberId: string): string[] {
    return [...this.#members].filter(([, members]) => members.has(memberId)).map(([groupId]) => groupId);
  }

  memberIdsOf(groupId: string): string[] {
    return [...(this.#members.get(groupId) ?? [])];
  }

  putMembership(groupId: string, memberId: string): void {
    const members = this.#members.get(groupId) ?? new Set<string>();
    members.add(memberId);
    this.#members.set(groupId, members);
  }

  deleteMembership(groupId: string, memberId: string): void {
    this.#members.get(groupId)?.delete(memberId);
  }

  deleteMembershipsOf(principalId: string): void {
    this.#members.delete(principalId);
    for (const members of this.#members.values()) members.delete(principalId);
  }

  role(name: string): RoleRow | undefined {
    return this.#roles.get(name);
  }

  roles(): RoleRow[] {
    return [...this.#roles.values()];
  }

  putRole(row: RoleRow): void {
    this.#roles.set(row.name, { name: row.name, operations: [...row.operations] });
  }

  key(ttag: string): KeyRow | undefined {
    return this.#keys.get(ttag);
  }

  putKey(row: KeyRow): void {
    this.#keys.set(row.ttag, row);
  }

  token(tokenHash: string): TokenRow | undefined {
    return this.#tokens.get(tokenHash);
  }

  putToken(row: TokenRow): void {
    this.#tokens.set(row.tokenHash, row);
  }

  deleteToken(tokenHash: string): void {
    this.#tokens.delete(tokenHash);
  }

  delegatedTokens(): TokenRow[] {
    return [...this.#tokens.values()].filter((row) => row.actingFor !== undefined);
  }

  deleteTokensActingFor(serviceName: string): void {
    for (const [hash, row] of this.#tokens) if (row.actingFor === serviceName) this.#tokens.delete(hash);
  }

  deleteTokensOf(principalId: string): void {
    for (const [hash, row] of this.#tokens) if (row.principalId === principalId) this.#tokens.delete(hash);
  }

  certificate(id: string): CertificateRow | undefined {
    return this.#certificates.get(id);
  }

  certificates(role: CertificateRow['role']): CertificateRow[] {
    return [...this.#certificates.values()].filter((row) => row.role === role);
  }

  putCertificate(row: CertificateRow): void {
    this.#certificates.set(row.id, row);
  }

  deleteCertificate(id: string): void {
    this.#certificates.delete(id);
  }

  deleteExpiredTokens(now: number): number {
    let removed = 0;
    for (const [hash, row] of this.#tokens) {
      if (row.expiresAt !== undefined && row.expiresAt <= now) {
        this.#tokens.delete(hash);
        removed += 1;
      }
    }
    return removed;
  }

  setting(name: string): string | undefined {
    return this.#settings.get(name);
  }

  putSetting(name: string, value: string): void {
    this.#settings.set(name, value);
  }

  /** Each operation already sees one state and changes it in one go: it runs synchronously, alone. */
  atomically<T>(operation: () => T): T {
    return operation();
  }

  close(): void {}
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
