/** A key-server principal as the contracts show it (docs/spec.md §2.2, login and grant responses). */
export interface Identity {
  readonly user: string;
  /** Numeric key-server system id, passed through as is. */
  readonly systemId: number;
  /** Hex-encoded principal id, 16 hex characters. */
  readonly principalId: string;
}

const PRINCIPAL_ID = /^[0-9a-f]{16}$/;

export function isPrincipalId(value: string): boolean {
  return PRINCIPAL_ID.test(value);
}
