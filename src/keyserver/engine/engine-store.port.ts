import type { CertificateRow, KeyRow, PrincipalRow, TokenRow } from './engine-model.js';

/**
 * The key-server engine's storage. Synchronous on purpose: the engine's stores are in-process
 * (memory, SQLite through better-sqlite3), and a synchronous store keeps each engine operation atomic.
 */
export interface EngineStore {
  principalByName(name: string): PrincipalRow | undefined;
  principalById(principalId: string): PrincipalRow | undefined;
  putPrincipal(row: PrincipalRow): void;
  nextSystemId(): number;

  key(ttag: string): KeyRow | undefined;
  putKey(row: KeyRow): void;

  token(tokenHash: string): TokenRow | undefined;
  putToken(row: TokenRow): void;
  deleteToken(tokenHash: string): void;
  /** Drops every token whose lifetime ended at or before `now` (ms); answers how many went. */
  deleteExpiredTokens(now: number): number;

  certificate(id: string): CertificateRow | undefined;
  certificates(role: CertificateRow['role']): CertificateRow[];
  putCertificate(row: CertificateRow): void;
  deleteCertificate(id: string): void;

  /** A value the engine keeps across restarts (its secret for unknown-user decoys, ...). */
  setting(name: string): string | undefined;
  putSetting(name: string, value: string): void;

  close(): void;
}
