import type { CertificateRow, PrincipalKind, PrincipalRow, RoleRow } from './engine-model.js';

/** Rows of the engine's SQLite tables as better-sqlite3 answers them, and their engine models. */
export interface PrincipalRecord {
  name: string;
  principal_id: string;
  kind: PrincipalKind;
  system_id: number;
  display_name: string | null;
  disabled: number;
  roles: string;
  srp_salt: Buffer | null;
  srp_verifier: Buffer | null;
  verifier_key_id: string | null;
  sender_key: string | null;
  delegates: string | null;
  provisioned_by: string | null;
  created_at: number;
}

export interface KeyRecord {
  ttag: string;
  nid: number;
  material: Buffer;
  material_key_id: string | null;
  owner: string;
  label: string | null;
  created_at: number;
  expires_at: number | null;
  expired: number;
  acl_revision: number;
}

export interface TokenRecord {
  token_hash: string;
  principal_id: string;
  issued_at: number;
  expires_at: number | null;
  scope: string | null;
  acting_for: string | null;
}

export interface RoleRecord {
  name: string;
  operations: string;
}

export interface CertificateRecord {
  id: string;
  pem: string;
  role: CertificateRow['role'];
  principal_id: string | null;
  created_at: number;
}

export function principalOf(record: PrincipalRecord | undefined): PrincipalRow | undefined {
  if (!record) return undefined;
  return {
    name: record.name,
    kind: record.kind,
    systemId: record.system_id,
    principalId: record.principal_id,
    disabled: record.disabled === 1,
    roles: JSON.parse(record.roles) as string[],
    createdAt: record.created_at,
    ...(record.display_name === null ? {} : { displayName: record.display_name }),
    ...(record.srp_salt === null || record.srp_verifier === null ? {} : { srp: { salt: record.srp_salt, verifier: record.srp_verifier } }),
    ...(record.sender_key === null ? {} : { senderKey: JSON.parse(record.sender_key) as NonNullable<PrincipalRow['senderKey']> }),
    ...(record.delegates === null ? {} : { delegates: JSON.parse(record.delegates) as string[] }),
    ...(record.provisioned_by === null ? {} : { provisionedBy: record.provisioned_by }),
  };
}

export function certificateOf(record: CertificateRecord | undefined): CertificateRow | undefined {
  if (!record) return undefined;
  return {
    id: record.id,
    pem: record.pem,
    role: record.role,
    createdAt: record.created_at,
    ...(record.principal_id === null ? {} : { principalId: record.principal_id }),
  };
}

export function roleOf(record: RoleRecord | undefined): RoleRow | undefined {
  if (!record) return undefined;
  return { name: record.name, operations: JSON.parse(record.operations) as string[] };
}
