import type { GrantConditions, Right } from '../../wire/acl.js';
import { JWT_MAX_LIFETIME, type SigningAlg, type SigningKeyType } from '../../wire/key-type.js';
import type { KeyUse } from '../../wire/key-view.js';
import type {
  AliasRow,
  CertificateRow,
  IdempotencyRow,
  KeyRow,
  KeyVersionRow,
  PrincipalKind,
  PrincipalRow,
  RoleRow,
  SigningKeyRow,
  TokenRow,
} from '../engine/engine-model.js';

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
  min_version: number;
  rotation_period: string | null;
  disabled: number;
  deletion_at: number | null;
  deleted_at: number | null;
  last_used_at: number | null;
  last_used_op: string | null;
  /** Absent on a row a backup of before signing keys restores (read as 'aes'). */
  key_type?: string;
  key_alg?: string | null;
  exportable?: number;
  published?: number;
  jwt_max_lifetime?: number | null;
}

/** The signing columns of a key's row (docs/spec.md §4.25): an `aes` key's are the defaults. */
export function signingRecord(row: KeyRow): Pick<KeyRecord, 'key_type' | 'key_alg' | 'exportable' | 'published' | 'jwt_max_lifetime'> {
  const { signing } = row;
  if (signing === undefined) return { key_type: 'aes', key_alg: null, exportable: 0, published: 0, jwt_max_lifetime: null };
  return {
    key_type: signing.type,
    key_alg: signing.alg,
    exportable: signing.exportable ? 1 : 0,
    published: signing.published ? 1 : 0,
    jwt_max_lifetime: signing.jwtMaxLifetime,
  };
}

/** The same columns in the order PostgreSQL's putKey binds them ($18..$22). */
export function signingColumns(row: KeyRow): [string, string | null, number, number, number | null] {
  const record = signingRecord(row);
  return [record.key_type!, record.key_alg!, record.exportable!, record.published!, record.jwt_max_lifetime!];
}

function signingField(signing: SigningKeyRow | undefined): { signing?: SigningKeyRow } {
  return signing === undefined ? {} : { signing };
}

/** A key row's signing settings from its record, absent for an `aes` key. */
function signingOf(record: KeyRecord): SigningKeyRow | undefined {
  if (record.key_type === undefined || record.key_type === 'aes') return undefined;
  return {
    type: record.key_type as SigningKeyType,
    alg: record.key_alg as SigningAlg,
    exportable: record.exportable === 1,
    published: record.published === 1,
    jwtMaxLifetime: record.jwt_max_lifetime ?? JWT_MAX_LIFETIME.default,
  };
}

/** A row of `aliases` (docs/spec.md §4.23 item 3). */
export interface AliasRecord {
  name: string;
  ttag: string;
  created_at: number;
  updated_at: number;
}

export function aliasOf(record: AliasRecord): AliasRow {
  return { name: record.name, ttag: record.ttag, createdAt: record.created_at, updatedAt: record.updated_at };
}

/** A key's tags as both durable stores read them: name to value. */
export type TagsRecord = Readonly<Record<string, string>>;

/** A row of `key_versions`: a version after the first, its material sealed to its id. */
export interface KeyVersionRecord {
  id: string;
  version: number;
  material: Buffer;
  material_key_id: string | null;
  created_at: number;
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

export function tokenOf(record: TokenRecord): TokenRow {
  return {
    tokenHash: record.token_hash,
    principalId: record.principal_id,
    issuedAt: record.issued_at,
    expiresAt: record.expires_at ?? undefined,
    ...(record.scope === null ? {} : { scope: JSON.parse(record.scope) as TokenRow['scope'] }),
    ...(record.acting_for === null ? {} : { actingFor: record.acting_for }),
  };
}

/** Opens a sealed value: (its master key id, the value, the row it belongs to). */
export type OpenSealed = (keyId: string | null, sealed: Buffer, row: string) => Buffer;

/**
 * The row of a principal. Its SRP verifier stays sealed until it is read, which only a password
 * login does: the token check of every other operation loads the principal, and would otherwise
 * bring a password-equivalent secret into memory, and pay for opening it, each time.
 */
export function sealedPrincipalOf(record: PrincipalRecord | undefined, open: OpenSealed): PrincipalRow | undefined {
  const row = principalOf(record);
  if (row?.srp === undefined || record?.verifier_key_id == null) return row;
  const { salt, verifier: sealed } = row.srp;
  const { verifier_key_id: keyId, principal_id: principalId } = record;
  return {
    ...row,
    srp: {
      salt,
      get verifier() {
        return open(keyId, sealed, principalId);
      },
    },
  };
}

/**
 * One ACL entry as both durable stores read it: principal id, rights and conditions as stored JSON
 * (conditions NULL for an unconditioned entry; absent from a row read before conditions existed).
 */
export type AclRecord = readonly [principalId: string, rights: string, conditions?: string | null];

/** A `key_acl` row as SQLite answers it. */
export interface AclEntryRecord {
  readonly principal_id: string;
  readonly rights: string;
  readonly conditions: string | null;
}

export function aclRecordOf(entry: AclEntryRecord): AclRecord {
  return [entry.principal_id, entry.rights, entry.conditions];
}

/**
 * The row of a key with its ACL entries (in order, rights and conditions as stored JSON). Its material stays sealed
 * until it is read, which only the operations that use the key do (an export, a cipher or MAC
 * operation, a grant that writes the row back): an ACL check or a key's view never holds it in the
 * clear, nor does a row kept by a read cache.
 */
export function sealedKeyOf(
  record: KeyRecord,
  acl: Iterable<AclRecord>,
  open: OpenSealed,
  versions: readonly KeyVersionRecord[],
  openVersion: OpenSealed,
  tags: TagsRecord,
): KeyRow {
  const entries = new Map<string, readonly Right[]>();
  const conditions = new Map<string, GrantConditions>();
  for (const [principalId, rights, stored] of acl) {
    entries.set(principalId, JSON.parse(rights) as Right[]);
    if (stored !== null && stored !== undefined) conditions.set(principalId, JSON.parse(stored) as GrantConditions);
  }
  const { material_key_id: keyId, material: sealed } = record;
  return {
    ttag: record.ttag,
    nid: record.nid,
    get material() {
      return open(keyId, sealed, record.ttag);
    },
    laterVersions: versions.map((stored) => sealedVersionOf(stored, openVersion)),
    minVersion: record.min_version,
    owner: record.owner,
    acl: entries,
    ...(conditions.size === 0 ? {} : { aclConditions: conditions }),
    aclRevision: record.acl_revision,
    createdAt: record.created_at,
    expired: record.expired === 1,
    disabled: record.disabled === 1,
    tags,
    ...(record.label === null ? {} : { label: record.label }),
    ...(record.deletion_at === null || record.deletion_at === undefined ? {} : { deletionAt: record.deletion_at }),
    ...(record.deleted_at === null || record.deleted_at === undefined ? {} : { deletedAt: record.deleted_at }),
    ...(record.expires_at === null ? {} : { expiresAt: record.expires_at }),
    ...(record.rotation_period === null || record.rotation_period === undefined ? {} : { rotationPeriod: record.rotation_period }),
    ...(record.deletion_at === null || record.deletion_at === undefined ? {} : { deletionAt: record.deletion_at }),
    ...(record.deleted_at === null || record.deleted_at === undefined ? {} : { deletedAt: record.deleted_at }),
    ...(record.last_used_at === null ? {} : { lastUsedAt: record.last_used_at, lastUsedOperation: record.last_used_op as KeyUse }),
    ...signingField(signingOf(record)),
  };
}

/** An idempotency record as both durable stores hold it (store-tables.ts). */
export interface IdempotencyRecord {
  readonly principal_id: string;
  readonly idem_key: string;
  readonly operation: string;
  readonly fingerprint: string;
  readonly answer: string;
  readonly created_at: number;
}

export function idempotencyOf(record: IdempotencyRecord | undefined): IdempotencyRow | undefined {
  if (record === undefined) return undefined;
  return {
    principalId: record.principal_id,
    key: record.idem_key,
    operation: record.operation,
    fingerprint: record.fingerprint,
    answer: record.answer,
    createdAt: record.created_at,
  };
}

export function idempotencyRecordOf(row: IdempotencyRow): IdempotencyRecord {
  return {
    principal_id: row.principalId,
    idem_key: row.key,
    operation: row.operation,
    fingerprint: row.fingerprint,
    answer: row.answer,
    created_at: row.createdAt,
  };
}

/** A later version of a key, its material sealed until it is read (as the key's own). */
function sealedVersionOf(stored: KeyVersionRecord, open: OpenSealed): KeyVersionRow {
  const { id, material_key_id: keyId, material: sealed } = stored;
  return {
    version: stored.version,
    createdAt: stored.created_at,
    get material() {
      return open(keyId, sealed, id);
    },
  };
}
