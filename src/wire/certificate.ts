/** A certificate object (docs/spec.md §4.11). */
export interface CertificateInfo {
  /** Lower-case hex SHA-256 of the DER. */
  readonly id: string;
  readonly subject: string;
  readonly issuer: string;
  readonly serial: string;
  /** ISO 8601. */
  readonly notBefore: string;
  readonly notAfter: string;
  readonly keyAlg: string;
  /** The principal an enrolled certificate is bound to. */
  readonly principal?: string;
  readonly pem: string;
}

/** The four auto-provisioning parameters for externally authenticated X.509 logins. */
export interface ProvisioningPolicy {
  readonly autoProvision: boolean;
  readonly nameAttribute: 'CN' | 'UID' | 'emailAddress';
  readonly defaultRoles: readonly string[];
  readonly defaultGroups: readonly string[];
}

/** The names of the provisioning policy's parameters, each set on its own. */
export const PROVISIONING_PARAMETERS = [
  'autoProvision',
  'nameAttribute',
  'defaultRoles',
  'defaultGroups',
] as const satisfies readonly (keyof ProvisioningPolicy)[];

export const DEFAULT_POLICY: ProvisioningPolicy = {
  autoProvision: false,
  nameAttribute: 'CN',
  defaultRoles: ['user'],
  defaultGroups: [],
};
