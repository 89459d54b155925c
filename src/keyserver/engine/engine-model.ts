import type { GrantConditions, Right } from '../../wire/acl.js';
import type { SigningAlg, SigningKeyType } from '../../wire/key-type.js';
import type { KeyState, KeyUse } from '../../wire/key-view.js';
import type { PrincipalKind } from '../../wire/principal.js';

export type { PrincipalKind };

/** A principal as the key server stores it. Users and services log in with an SRP verifier. */
export interface PrincipalRow {
  readonly name: string;
  readonly kind: PrincipalKind;
  readonly systemId: number;
  /** 16 lower-case hex characters. */
  readonly principalId: string;
  readonly displayName?: string;
  readonly disabled: boolean;
  readonly roles: readonly string[];
  /** SRP-6a salt and verifier; absent for groups and for principals without a password. */
  readonly srp?: { readonly salt: Buffer; readonly verifier: Buffer };
  /** The public key the principal's certificate logins are bound to, with its RFC 7638 thumbprint. */
  readonly senderKey?: { readonly jwk: Readonly<Record<string, string>>; readonly jkt: string };
  /** A service's delegation list: the principal and group names it may act for (docs/spec.md §4.18 item 1). */
  readonly delegates?: readonly string[];
  /** Set on a principal auto-provisioned from a certificate: the issuing authority's certificate id. */
  readonly provisionedBy?: string;
  readonly createdAt: number;
}

/** A version of a key after its first: material of the key's length, made by a rotation. */
export interface KeyVersionRow {
  /** 2 or more: version 1 is the key row's own material. */
  readonly version: number;
  readonly material: Buffer;
  readonly createdAt: number;
}

/** A key: its opaque handle, its material (one per version), owner and access list. */
export interface KeyRow {
  /** Standard base64 of the opaque hidden-link buffer. */
  readonly ttag: string;
  readonly nid: number;
  /** Version 1's material, made with the key (its `createdAt`). */
  readonly material: Buffer;
  /**
   * The versions rotations added (2, 3, ...), oldest first. A store adds one with `putKeyVersion` and
   * never changes it; `putKey` leaves them as stored.
   */
  readonly laterVersions: readonly KeyVersionRow[];
  /** Versions below it are retired (refuse export, decrypt and MAC verify); 1 for a key never restricted. */
  readonly minVersion: number;
  /** Principal id of the owner. */
  readonly owner: string;
  /** Principal id -> rights. */
  readonly acl: ReadonlyMap<string, readonly Right[]>;
  /**
   * Principal id -> the conditions of its entry in `acl` (docs/spec.md §4.5b item 4), stored with the
   * entry: an entry not named here (or a row without the map) is unconditioned; an id `acl` lacks
   * means nothing. A grant sets or removes its entry's conditions with its rights.
   */
  readonly aclConditions?: ReadonlyMap<string, GrantConditions>;
  /**
   * The ACL's revision: 0 for a new key, one more for every grant or revoke applied (docs/spec.md §4.1 item 3). A
   * writer learns the revision its write produced, so a read-back can tell its own write from a later one.
   */
  readonly aclRevision: number;
  readonly label?: string;
  readonly createdAt: number;
  readonly expiresAt?: number;
  readonly expired: boolean;
  /**
   * Disabled by its owner (docs/spec.md §4.6): it refuses export and cryptography, keeps every version,
   * and is enabled again by its owner. A key stored before keys had states reads false.
   */
  readonly disabled: boolean;
  /** The scheduled rotation period as given: an ISO 8601 duration of at least one day (src/wire/iso-duration.ts). */
  readonly rotationPeriod?: string;
  /**
   * The key's tags, name to value (docs/spec.md §4.23 item 2). A store adds and removes them with
   * `putKeyTag` and `deleteKeyTag`; `putKey` leaves them as stored (`tags` is not read).
   */
  readonly tags: Readonly<Record<string, string>>;
  /** When a scheduled deletion destroys the key (ms), while it waits (docs/spec.md §4.23 item 5). */
  readonly deletionAt?: number;
  /** When the key was destroyed (ms): the row is then a tombstone (docs/spec.md §4.23 item 5). */
  readonly deletedAt?: number;
  /**
   * The last use (ms) and which use it was (docs/spec.md §4.23 item 6). Written only by
   * `EngineStore.recordKeyUse`; `putKey` leaves them as stored.
   */
  readonly lastUsedAt?: number;
  readonly lastUsedOperation?: KeyUse;
  /**
   * A signing key's type and settings (docs/spec.md §4.25 item 1); absent on an `aes` key. Its material
   * (each version's) is then the private key's PKCS#8 (DER), and `nid` means nothing.
   */
  readonly signing?: SigningKeyRow;
}

/** What a signing key adds to its row (docs/spec.md §4.25 items 1, 5, 7). */
export interface SigningKeyRow {
  readonly type: SigningKeyType;
  /** The algorithm its JWKS names and sign-jwt uses: one its type fits. */
  readonly alg: SigningAlg;
  /** Whether its private key may be exported (wrapped, §3.2); fixed at creation. */
  readonly exportable: boolean;
  /** Whether any gateway serves its JWKS without a session (docs/spec.md §4.25 item 7). */
  readonly published: boolean;
  /** The longest lifetime (seconds) of a JWT it signs (docs/spec.md §4.25 item 5). */
  readonly jwtMaxLifetime: number;
}

/** An alias: a name for one key, unique in the deployment (docs/spec.md §4.23 item 3). */
export interface AliasRow {
  readonly name: string;
  /** The key it names (standard base64). */
  readonly ttag: string;
  /** ms since the epoch: when the alias was first set, and when it last named a key anew. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Which aliases a list reads (docs/spec.md §4.23 item 3), in alias order, strictly after `after`. */
export interface AliasQuery {
  readonly after?: string | undefined;
  readonly limit: number;
  /** Only the aliases of this key. */
  readonly ttag?: string | undefined;
  /** Only the aliases that begin with this. */
  readonly prefix?: string | undefined;
  /**
   * Only the aliases of keys these principals reach: owned by one of them, or with an ACL entry naming
   * one. Absent: every key (an administrator's list).
   */
  readonly reachedBy?: readonly string[] | undefined;
  /** Only the aliases of these keys (a scoped token's). */
  readonly within?: readonly string[] | undefined;
}

/**
 * One page of the key list as a store reads it (docs/spec.md §4.23 item 1): the keys that pass every
 * filter given, newest first by `createdAt`, then by ttag (code-unit order, descending), strictly after
 * `after` in that order, at most `limit`. Each key comes whole (ACL, versions, tags), read in the one
 * unit of the store the page is read in.
 */
export interface KeyPageQuery {
  /** Keys owned by one of these principal ids or whose ACL names one of them; undefined: every key. */
  readonly visibleTo?: readonly string[];
  /** Only these ttags (a scoped token's keys). */
  readonly ttags?: readonly string[];
  /** The owner's principal id. */
  readonly owner?: string;
  /** A label prefix, compared by code unit. */
  readonly labelPrefix?: string;
  /** Each must match: the tag with that value, or (value undefined) with any value. */
  readonly tags: readonly { readonly name: string; readonly value?: string }[];
  /** The key's state as of `now` (docs/spec.md §4.23 item 4); undefined: every state but `deleted`. */
  readonly state?: KeyState;
  readonly now: number;
  /** Created strictly after, strictly before (ms). */
  readonly createdAfter?: number;
  readonly createdBefore?: number;
  /** The last key of the page before. */
  readonly after?: { readonly createdAt: number; readonly ttag: string };
  readonly limit: number;
}

/** A token the key server issued: only its hash is kept. */
export interface TokenRow {
  readonly tokenHash: string;
  readonly principalId: string;
  readonly issuedAt: number;
  /** ms since the epoch; undefined: never expires. */
  readonly expiresAt: number | undefined;
  /** A scoped token reaches only these keys (ttag -> rights). */
  readonly scope?: Readonly<Record<string, readonly Right[]>>;
  /** A delegated token: the service principal that minted it. */
  readonly actingFor?: string;
}

/**
 * An idempotency record (src/wire/idempotency.ts): the first answer of an operation a caller made
 * under an `Idempotency-Key`, kept with the state it created so that a retry finds both or neither.
 */
export interface IdempotencyRow {
  /** The caller's principal id: keys are the caller's own, so one caller never sees another's answer. */
  readonly principalId: string;
  readonly key: string;
  /** The protocol operation it answered (`generateKey`, `rotateKey`). */
  readonly operation: string;
  readonly fingerprint: string;
  /** The answer, as JSON. It holds no secret: a handle or a key view, never key material. */
  readonly answer: string;
  /** ms since the epoch, by the engine's clock. */
  readonly createdAt: number;
}

/** A certificate the key server knows: a trusted authority, or a leaf enrolled to a principal. */
export interface CertificateRow {
  /** Lower-case hex SHA-256 of the DER. */
  readonly id: string;
  readonly pem: string;
  readonly role: 'authority' | 'enrolled';
  /** The principal id an enrolled leaf is bound to. */
  readonly principalId?: string;
  readonly createdAt: number;
}

/** A stored role definition: a built-in role redefined, or a role of the operator's own. */
export interface RoleRow {
  readonly name: string;
  /** Operation ids (src/domain/roles/operations.ts). */
  readonly operations: readonly string[];
}

export { DEFAULT_POLICY, type ProvisioningPolicy } from '../../wire/certificate.js';
