/** What a principal is (docs/spec.md §4.8); a group is a principal too. */
export type PrincipalKind = 'user' | 'group' | 'service';
export const PRINCIPAL_KINDS: readonly PrincipalKind[] = ['user', 'group', 'service'];

/**
 * A principal (or group) name: 1..64 characters, letters and digits first, then letters, digits and
 * `.`, `_`, `@`, `-`, interior spaces and commas, never a space or comma last. A certificate subject
 * such as `CN=Smith\, John` names `Smith, John`; no control character, no `/`, no
 * leading or trailing space. The key server enforces it; the OpenAPI document shows it on `{name}`.
 */
export const PRINCIPAL_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._@, -]{0,62}[A-Za-z0-9._@-])?$/;

/** The principal view (docs/spec.md §4.8). `createdAt` is ISO 8601; never a verifier or a password. */
export interface PrincipalView {
  readonly name: string;
  readonly kind: PrincipalKind;
  readonly systemId: number;
  /** 16 lower-case hex characters. */
  readonly principalId: string;
  readonly displayName?: string;
  readonly disabled: boolean;
  readonly roles: readonly string[];
  readonly createdAt: string;
  /** RFC 7638 thumbprint of the registered sender key (operation 28), when there is one. */
  readonly jkt?: string;
  /** A service's delegation list: the principal and group names it may act for (empty by default). */
  readonly delegates?: readonly string[];
  /** A principal auto-provisioned from a certificate: the issuing authority's certificate id. */
  readonly provisionedBy?: string;
}

/**
 * An SRP-6a verifier record, standard base64. The gateway makes it from the password, so a password
 * never travels to the key server (the same reason logins use SRP).
 */
export interface PasswordVerifier {
  readonly salt: string;
  readonly verifier: string;
}

/** Operation 22. */
export interface NewPrincipal {
  readonly name: string;
  readonly kind: PrincipalKind;
  readonly displayName?: string | undefined;
  readonly roles?: readonly string[] | undefined;
  readonly verifier?: PasswordVerifier | undefined;
}

/** Operation 24: only the fields given change. */
export interface PrincipalChanges {
  readonly displayName?: string | undefined;
  readonly disabled?: boolean | undefined;
  readonly roles?: readonly string[] | undefined;
  /** Services only (docs/spec.md §4.18 item 1). */
  readonly delegates?: readonly string[] | undefined;
}

/** Operation 21. */
export interface PrincipalQuery {
  readonly kind?: PrincipalKind | undefined;
  readonly limit: number;
  readonly cursor?: string | undefined;
}
