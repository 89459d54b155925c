import type { HeldOperations } from '../domain/roles/held-operations.js';
import type { Secret } from '../domain/secret/secret.js';
import type { Right } from '../wire/acl.js';
import type { CertificateInfo, ProvisioningPolicy } from '../wire/certificate.js';
import type { CertificateQuery, CertificateVerdict } from '../wire/certificate-verdict.js';
import type {
  BatchItem,
  BatchOperation,
  BatchOutcome,
  DecryptRequest,
  DecryptResult,
  EncryptRequest,
  EncryptResult,
  IdempotencyClaim,
  MacResult,
  VerifyMacRequest,
} from '../wire/crypto-messages.js';
import type { Identity } from '../wire/identity.js';
import type { KeyVersionView, KeyView, NewKey } from '../wire/key-view.js';
import type { ListResult } from '../wire/list-result.js';
import type { NewPrincipal, PasswordVerifier, PrincipalChanges, PrincipalQuery, PrincipalView } from '../wire/principal.js';
import type { RoleView } from '../wire/role.js';
import type { KeyServerVersion, ServerParameter } from '../wire/server.js';
import { token } from './token.js';

/** What a password login yields: the key-server token (kept on the gateway only) and who signed in. */
export interface KeyServerLogin {
  readonly token: Secret;
  readonly identity: Identity;
  /** When the token stops being valid (ms since the epoch); undefined when it never expires. */
  readonly expiresAt: number | undefined;
}

/** A certificate or delegated login: the principal's registered sender key thumbprint, if any. */
export interface KeyServerCertificateLogin extends KeyServerLogin {
  readonly jkt: string | undefined;
}

/** A token narrowed to keys and rights (a scoped session's key-server side). */
export interface ScopedToken extends KeyServerLogin {
  /** ttag -> the rights the token has on it. */
  readonly scope: Readonly<Record<string, readonly Right[]>>;
}

/** A token acting as another principal, minted by a service. */
export interface DelegatedToken extends KeyServerLogin {
  readonly actingFor: string;
}

/**
 * The export blob the key server hands the gateway: the raw data key, as bytes its receiver zeroes
 * once it has wrapped them, its OpenSSL NID and its version.
 */
export interface ExportBlob {
  readonly nid: number;
  readonly key: Uint8Array;
  /** The key version the material belongs to. */
  readonly version: number;
}

/** One entry of a key's access list, as read back from the key server. */
export interface AclEntry {
  readonly principal: Identity;
  readonly rights: readonly Right[];
}

/** One key-server daemon as `/health` lists it. */
export interface KeyServerDaemon {
  /** Its `https://host:port` origin. */
  readonly url: string;
  /** SHA-256 of its certificate (the pin, or what a CA-validated handshake showed); undefined until known. */
  readonly fingerprint: string | undefined;
  /** Whether the last attempt to reach it succeeded. */
  readonly ok: boolean;
}

/** A key's access list as read back from the key server. */
export interface KeyAcl {
  readonly owner: Identity;
  readonly entries: readonly AclEntry[];
  /**
   * The ACL's revision, kept by the key server: one more for every grant or revoke it applied to this
   * key. Internal to the gateway (the /api ACL view does not show it).
   */
  readonly revision: number;
}

/** What a grant or revoke the key server applied answers: the ACL revision it produced. */
export interface AclWrite {
  readonly revision: number;
}

/** A grant the key server applied: the resolved grantee and the revision it produced. */
export interface AclGrant extends AclWrite {
  readonly grantee: Identity;
}

/**
 * One authenticated connection to the key server, opened for one gateway request and closed after it.
 *
 * Errors (domain errors, by code): `SESSION_EXPIRED` when the token expired or is invalid;
 * `ROLE_DENIED` / `ACL_DENIED` / `OUT_OF_SCOPE` for authorization; `NOT_FOUND` for an unknown key or
 * principal; `KEY_EXPIRED` for export or cryptography with an expired key; `KEY_VERSION_RETIRED` for
 * export, decrypt or MAC verify by a version below the key's minVersion; `KEY_VERSION_NOT_FOUND` for a
 * version the key does not have; `IDEMPOTENCY_KEY_REUSED` for an Idempotency-Key used with another request;
 * `BAD_REQUEST` for a value the key server refuses; `KEY_SERVER_UNAVAILABLE` when it cannot be
 * reached; `KEY_SERVER_FAILED` for any other failure.
 */
export interface KeyServerConnection {
  /** The principal the token belongs to. */
  whoami(): Promise<Identity>;
  /** The caller's operations (its roles and its groups' roles) and whether its token is scoped. */
  heldOperations(): Promise<HeldOperations>;
  /**
   * Generates a key owned by the caller (version 1); returns its handle (standard base64). With an
   * idempotency claim, a replay of the same request within 24 hours answers the first handle with
   * `replayed: true` and creates nothing; KEY_EXPIRED when that key has expired since.
   */
  generateKey(options: NewKey, idempotency?: IdempotencyClaim): Promise<{ ttag: string; replayed: boolean }>;
  /**
   * Undoes the caller's own creation (needs `keys.create`, owner only): the key is expired, and the
   * caller's idempotency record under `idempotencyKey` that answered it is forgotten. Once that record
   * has answered a replay, key and record are kept: the retry holds the key (docs/spec.md §4.22 item 7).
   */
  withdrawKey(ttag: string, idempotencyKey?: string): Promise<void>;
  /** The key view (never the material); needs `read`. */
  readKey(ttag: string): Promise<KeyView>;
  /**
   * A page of the key's versions, newest first, `limit` 1..1000; `next` is the opaque cursor of the
   * following page (docs/spec.md §4.22 item 10). Needs `read`, as the view; a bad limit or cursor is BAD_REQUEST.
   */
  keyVersions(ttag: string, query: { limit: number; cursor?: string | undefined }): Promise<ListResult<KeyVersionView>>;
  /** Expires the key for good; owner only. */
  expireKey(ttag: string): Promise<KeyView>;
  /**
   * Adds version n+1 of the same length, made by the key server; owner or right `rotate`. Answers the
   * key view after the rotation. With an idempotency claim, a replay answers the first view and adds nothing.
   */
  rotateKey(ttag: string, idempotency?: IdempotencyClaim): Promise<KeyView>;
  /**
   * Raises the key's minVersion (owner only): versions below it are retired. Lower than the current
   * minimum is CONFLICT; above the newest version, BAD_REQUEST.
   */
  setMinVersion(ttag: string, minVersion: number): Promise<KeyView>;
  /**
   * The raw data key of one version (the newest when absent), for a caller who owns the key or holds
   * `export` on it; KEY_EXPIRED once expired, KEY_VERSION_RETIRED below the minVersion.
   */
  exportKey(ttag: string, version?: number): Promise<ExportBlob>;
  /** The key's access list and its current revision; owner only. */
  readAcl(ttag: string): Promise<KeyAcl>;
  /** Sets (replaces) a principal's rights on the key; owner only. Answers the resolved principal and the revision. */
  grant(ttag: string, principal: string, rights: readonly Right[]): Promise<AclGrant>;
  /** Removes a principal's entry from the key's ACL; owner only. Answers the revision the write produced. */
  revoke(ttag: string, principal: string): Promise<AclWrite>;
  /** The caller's effective rights on the key (own entry, groups' entries, ownership; narrowed by scope). */
  accessRights(ttag: string): Promise<readonly Right[]>;
  /** AES-GCM under the newest version's key (`encrypt` right); the key server draws the iv. */
  encrypt(ttag: string, request: EncryptRequest): Promise<EncryptResult>;
  /**
   * `decrypt` right; by `request.version` (1 when absent); DECRYPT_FAILED when the tag does not verify.
   * The plaintext is the caller's to zero.
   */
  decrypt(ttag: string, request: DecryptRequest): Promise<DecryptResult>;
  /** HMAC-SHA256 under the newest version's key (`mac` right). */
  mac(ttag: string, data: Uint8Array): Promise<MacResult>;
  /** Constant-time MAC check (`mac` right), by `request.version` (1 when absent). */
  verifyMac(ttag: string, request: VerifyMacRequest): Promise<{ valid: boolean }>;
  /**
   * Decrypts by `request.version` (1 when absent) and encrypts under the newest version, inside the key
   * server: the plaintext never reaches the gateway. Needs both `decrypt` and `encrypt`.
   */
  rewrap(ttag: string, request: DecryptRequest): Promise<EncryptResult>;
  /**
   * Runs one cryptographic operation on up to MAX_BATCH_ITEMS items in one round trip. Each item is
   * authorized and performed on its own; its failure is its outcome (`ok: false`), never the call's.
   * More items than the limit is BAD_REQUEST for the whole call. A decrypted plaintext in an outcome is
   * the caller's to zero.
   */
  cryptoBatch(operation: BatchOperation, items: readonly BatchItem[]): Promise<readonly BatchOutcome[]>;
  /** A page of principals by name; `next` is the opaque cursor of the following page. */
  listPrincipals(query: PrincipalQuery): Promise<ListResult<PrincipalView>>;
  /** Creates a principal; CONFLICT when the name is taken, BAD_REQUEST for an unknown role. */
  createPrincipal(input: NewPrincipal): Promise<PrincipalView>;
  readPrincipal(name: string): Promise<PrincipalView>;
  /** Changes only the fields given; disabling ends the principal's tokens. */
  updatePrincipal(name: string, changes: PrincipalChanges): Promise<PrincipalView>;
  /** Deletes the principal and ends its tokens. */
  deletePrincipal(name: string): Promise<void>;
  /**
   * Replaces the principal's SRP-6a verifier (made by the gateway from the new password) and ends
   * every other token of the principal. An own change carries `currentProof`: the token of a fresh
   * SRP login with the current password, which the key server checks and then revokes.
   */
  setPassword(name: string, verifier: PasswordVerifier, currentProof?: Secret): Promise<void>;
  /** The groups the principal belongs to. */
  principalGroups(name: string): Promise<ListResult<PrincipalView>>;
  groupMembers(group: string): Promise<ListResult<PrincipalView>>;
  addGroupMember(group: string, member: string): Promise<void>;
  removeGroupMember(group: string, member: string): Promise<void>;
  listRoles(): Promise<ListResult<RoleView>>;
  readRole(name: string): Promise<RoleView>;
  /** Defines or redefines a role; an unknown operation id is BAD_REQUEST. */
  putRole(name: string, operations: readonly string[]): Promise<RoleView>;
  /** Mints a token narrowed to the listed keys and rights, lasting `ttlMs` at most. */
  mintScoped(request: { objects: readonly string[]; rights?: readonly Right[] | undefined; ttlMs: number }): Promise<ScopedToken>;
  /** Mints a token acting as a principal named, or identified by a trusted certificate. */
  mintDelegated(target: { principal: string } | { certificate: string }): Promise<DelegatedToken>;
  /** Stored certificates (trusted authorities and enrolled leaves) by id, a page at a time. */
  listCertificates(query: CertificateQuery): Promise<ListResult<CertificateInfo>>;
  readCertificate(id: string): Promise<CertificateInfo>;
  /** Reads a PEM certificate without storing anything; garbage is CERTIFICATE_MALFORMED. */
  parseCertificate(pem: string): Promise<CertificateInfo>;
  /** Whether the certificate chains to a trusted authority now. */
  verifyCertificate(pem: string): Promise<CertificateVerdict>;
  listTrustAuthorities(): Promise<ListResult<CertificateInfo>>;
  /** Adds a trusted certificate authority; a non-CA certificate is BAD_REQUEST. */
  addTrustAuthority(pem: string): Promise<CertificateInfo>;
  /** Stops trusting an authority; NOT_FOUND when it is not one. */
  removeTrustAuthority(id: string): Promise<void>;
  /** Enrolls a leaf chaining to a trusted authority to a principal; CONFLICT when it does not chain. */
  enrollCertificate(principal: string, pem: string): Promise<CertificateInfo>;
  serverVersion(): Promise<KeyServerVersion>;
  /** The key server's configuration, secrets redacted. */
  serverConfig(): Promise<Record<string, unknown>>;
  listParameters(): Promise<ListResult<ServerParameter>>;
  /** Unknown name: NOT_FOUND; wrong type: BAD_REQUEST. */
  setParameter(name: string, value: unknown): Promise<ServerParameter>;
  /** Registers the public key a principal's certificate logins are bound to. */
  putSenderKey(principal: string, jwk: unknown): Promise<{ jkt: string }>;
  readPolicy(): Promise<ProvisioningPolicy>;
  setPolicy(name: string, value: unknown): Promise<ProvisioningPolicy>;
  /** Invalidates the token at the key server (logout). */
  signOut(): Promise<void>;
  /** Ends the connection. Idempotent. */
  close(): Promise<void>;
}

/**
 * The key server as the gateway needs it (architecture.md "The key server"). Adapters: embedded (the
 * engine in-process) and tls (a daemon over TLS 1.3); both pass `test/ports/key-server.contract.ts`.
 */
export interface KeyServer {
  /**
   * Password login against the principal's SRP-6a verifier: with a daemon by an SRP-6a exchange
   * (the password never leaves the gateway), embedded by checking the verifier in process. Throws `WRONG_CREDENTIAL` for a
   * refused credential and `KEY_SERVER_UNAVAILABLE` / `KEY_SERVER_FAILED` for anything else.
   */
  login(user: string, password: Secret): Promise<KeyServerLogin>;
  /** First leg of a certificate login: a single-use challenge for the certificate's key to sign. */
  certificateChallenge(certificatePem: string): Promise<{ challengeId: string; challenge: string; expiresAt: number }>;
  /** Second leg: the signature over the challenge; WRONG_CREDENTIAL when refused. */
  certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin>;
  /** Opens a fresh validated connection authenticated with the token. */
  connect(token: Secret): Promise<KeyServerConnection>;
  /** Lower-case hex SHA-256 of the key server's identity certificate (DER), no separators. */
  fingerprint(): string;
  /**
   * Each daemon a gateway reaches over TLS, and whether it serves (empty for the embedded key server).
   * Holds no secret: a URL and a certificate fingerprint are public.
   */
  daemons(): readonly KeyServerDaemon[];
  /**
   * Resolves when the key server answers (with several daemons: when at least one does); throws
   * `KEY_SERVER_UNAVAILABLE` otherwise.
   */
  ping(): Promise<void>;
  /** Releases resources held by the adapter. */
  close(): Promise<void>;
}

export const KEY_SERVER = token<KeyServer>('KeyServer');
