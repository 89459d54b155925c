/** Operation 38: whether a certificate chains to a trusted authority now, and why not. */
export interface CertificateVerdict {
  readonly trusted: boolean;
  /** Certificate ids from the leaf up to the authority (the leaf alone when untrusted). */
  readonly chain: readonly string[];
  readonly reason?: string;
}

/** Operation 35. */
export interface CertificateQuery {
  /** Part of the subject, case-insensitive. */
  readonly subject?: string | undefined;
  /** The name of the principal a certificate is enrolled to. */
  readonly principal?: string | undefined;
  readonly limit: number;
  readonly cursor?: string | undefined;
}
