import type { EngineStore } from './engine-store.port.js';
import type { CertificateRow, KeyRow, PrincipalRow, TokenRow } from './engine-model.js';

/** The engine's store in memory: everything is gone when the process ends. */
export class MemoryEngineStore implements EngineStore {
  readonly #principals = new Map<string, PrincipalRow>();
  readonly #byId = new Map<string, string>();
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

  close(): void {}
}
