import { createHash, createHmac } from 'node:crypto';
import type { Requester, Right } from '../../domain/acl/acl.js';
import { AclDeniedError, OutOfScopeError, RoleDeniedError } from '../../domain/acl/acl.errors.js';
import { canUse, isOwner } from '../../domain/acl/evaluate-access.js';
import { BadRequestError, KeygateError, NotFoundError } from '../../domain/errors/index.js';
import type { Identity } from '../../domain/identity/identity.js';
import type { NewKey } from '../../domain/key/key-view.js';
import type { RandomSource } from '../../domain/random-source.js';
import type { Operation } from '../../domain/roles/operations.js';
import { SessionExpiredError, WrongCredentialError } from '../../domain/session/session.errors.js';
import { SRP_GROUP_2048 } from '../../domain/srp/srp-group.js';
import { modPow, toBigInt, toBytes } from '../../domain/srp/srp-math.js';
import { srpCreateVerifier, srpServerStart, srpServerVerify, type SrpServerEphemeral, type SrpVerifier } from '../../domain/srp/srp-server.js';
import { CertificateOperations } from './certificate-operations.js';
import { CryptoOperations } from './crypto-operations.js';
import { EngineParameters } from './engine-parameters.js';
import type { EngineStore } from './engine-store.port.js';
import type { KeyRow, PrincipalKind, PrincipalRow, TokenRow } from './engine-model.js';
import { principalOperations } from './engine-roles.js';
import { aclOf, identityOf, requesterOf } from './engine-views.js';
import { IdentityOperations } from './identity-operations.js';
import { GroupOperations } from './group-operations.js';
import { KeyOperations, type AclEntryView } from './key-operations.js';
import { PrincipalOperations } from './principal-operations.js';
import { RoleOperations } from './role-operations.js';
import { ServerOperations } from './server-operations.js';

export { aclOf, identityOf } from './engine-views.js';

/** A caller as the engine sees it: the principal and the token it presented. */
export interface TokenContext {
  readonly principal: PrincipalRow;
  readonly token: TokenRow;
}

export interface EngineOptions {
  readonly store: EngineStore;
  readonly now: () => number;
  readonly random: RandomSource;
  /** Token lifetime in ms; undefined: tokens never expire. The default of `tokenTtlSeconds`. */
  readonly tokenTtlMs?: number | undefined;
  /** The key server's version (operation 43). */
  readonly version?: string | undefined;
  /** How the key server was started, shown with secrets redacted (operation 44). */
  readonly config?: Readonly<Record<string, unknown>> | undefined;
}

export interface NewPrincipal {
  readonly name: string;
  readonly kind: PrincipalKind;
  readonly password?: string | undefined;
  /** A verifier made elsewhere (the gateway makes it, so the password never reaches the key server). */
  readonly srp?: SrpVerifier | undefined;
  readonly roles?: readonly string[] | undefined;
  readonly displayName?: string | undefined;
}

interface PendingLogin {
  readonly user: string;
  readonly salt: Buffer;
  readonly verifier: Buffer;
  readonly ephemeral: SrpServerEphemeral;
  readonly A: bigint;
  readonly expiresAt: number;
  /** False for a decoy (unknown user, group): the proof can never match. */
  readonly real: boolean;
}

const PRINCIPAL_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/**
 * The key-server engine: principals with SRP-6a verifiers, tokens, keys with per-key ACLs. It runs
 * in-process (the embedded adapter) or behind the TLS daemon; either way it decides every
 * authorization itself and throws domain errors with contract codes.
 *
 * The operations of each family live in a module of their own, reached from here (`engine.keys`,
 * `engine.crypto`, `engine.identity`, ...); each takes the token first and plain JSON-able values.
 */
export class KeyServerEngine {
  /** Key lifecycle and key ACLs (api-surface.md 13-20). */
  readonly keys: KeyOperations;
  /** Data cryptography under the raw key (9-12). */
  readonly crypto: CryptoOperations;
  /** Principals (21-27), group membership (29-31), roles (32-34). */
  readonly principals: PrincipalOperations;
  readonly groups: GroupOperations;
  readonly roles: RoleOperations;
  /** Certificate objects (35-38) and the list and removal of trusted authorities (39, 41). */
  readonly certificates: CertificateOperations;
  /** Certificate trust and login, sender keys, policy, scoped and delegated tokens. */
  readonly identity: IdentityOperations;
  /** Version, configuration and parameters (43-46). */
  readonly server: ServerOperations;
  readonly parameters: EngineParameters;
  readonly version: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly #store: EngineStore;
  readonly #now: () => number;
  readonly #random: RandomSource;
  readonly #pending = new Map<string, PendingLogin>();
  readonly #decoySecret: Buffer;

  constructor(options: EngineOptions) {
    this.#store = options.store;
    this.#now = options.now;
    this.#random = options.random;
    this.version = options.version ?? 'unknown';
    this.config = options.config ?? {};
    this.parameters = new EngineParameters(options.store, {
      tokenTtlSeconds: options.tokenTtlMs === undefined ? 0 : Math.ceil(options.tokenTtlMs / 1000),
      loginHandshakeSeconds: 60,
      maxPendingLogins: 10_000,
    });
    this.#decoySecret = this.#loadDecoySecret();
    this.keys = new KeyOperations(this);
    this.crypto = new CryptoOperations(this);
    this.principals = new PrincipalOperations(this);
    this.groups = new GroupOperations(this);
    this.roles = new RoleOperations(this);
    this.certificates = new CertificateOperations(this);
    this.identity = new IdentityOperations(this);
    this.server = new ServerOperations(this);
  }

  /** Creates a principal (seeding and administration). A password makes an SRP verifier; it is not kept. */
  createPrincipal(input: NewPrincipal): Identity {
    if (!PRINCIPAL_NAME.test(input.name)) throw new BadRequestError(`name: invalid principal name ${input.name}`);
    if (this.#store.principalByName(input.name)) throw new KeygateError('CONFLICT', `principal exists: ${input.name}`);
    if ((input.password !== undefined || input.srp !== undefined) && input.kind === 'group') throw new BadRequestError('password: a group has no password');
    const row: PrincipalRow = {
      name: input.name,
      kind: input.kind,
      systemId: this.#store.nextSystemId(),
      principalId: Buffer.from(this.#random.bytes(8)).toString('hex'),
      disabled: false,
      roles: [...(input.roles ?? defaultRoles(input.kind))],
      createdAt: this.#now(),
      ...(input.displayName === undefined ? {} : { displayName: input.displayName }),
      ...(input.srp !== undefined ? { srp: input.srp } : {}),
      ...(input.password !== undefined && input.srp === undefined ? { srp: srpCreateVerifier(input.name, input.password, this.#random) } : {}),
    };
    this.#store.putPrincipal(row);
    return identityOf(row);
  }

  hasPrincipal(name: string): boolean {
    return this.#store.principalByName(name) !== undefined;
  }

  /**
   * SRP-6a server step 1. An unknown user, a group or a principal without a password gets a decoy
   * salt and B derived from a secret, so the answer does not tell whether the user exists.
   */
  beginLogin(user: string, A: Buffer): { handle: string; salt: Buffer; B: Buffer } {
    this.#sweepPending();
    if (this.#pending.size >= this.parameters.value('maxPendingLogins')) throw new KeygateError('KEY_SERVER_FAILED', 'too many logins in progress');
    const Abig = toBigInt(A);
    if (A.length === 0 || Abig % SRP_GROUP_2048.N === 0n || Abig >= SRP_GROUP_2048.N) {
      throw new WrongCredentialError('illegal SRP value A');
    }
    const row = this.#store.principalByName(user);
    const real = row?.srp !== undefined && row.kind !== 'group';
    const { salt, verifier } = real ? row.srp! : this.#decoy(user);
    const ephemeral = srpServerStart(verifier, this.#random);
    const handle = Buffer.from(this.#random.bytes(16)).toString('base64url');
    const expiresAt = this.#now() + this.parameters.value('loginHandshakeSeconds') * 1000;
    this.#pending.set(handle, { user, salt, verifier, ephemeral, A: Abig, expiresAt, real });
    return { handle, salt, B: toBytes(ephemeral.B, SRP_GROUP_2048.byteLength) };
  }

  /** SRP-6a server step 2: checks the client proof; on success issues a token. Single use. */
  finishLogin(handle: string, M1: Buffer): { M2: Buffer; token: string; identity: Identity; expiresAt: number | undefined } {
    const pending = this.#pending.get(handle);
    this.#pending.delete(handle);
    if (!pending || pending.expiresAt <= this.#now()) throw new WrongCredentialError('empty data: no login in progress');
    const { M2 } = srpServerVerify({ user: pending.user, salt: pending.salt, verifier: pending.verifier, A: pending.A, M1, ephemeral: pending.ephemeral });
    const row = this.#store.principalByName(pending.user);
    if (!pending.real || !row) throw new WrongCredentialError('WRONG_CREDENTIAL');
    if (row.disabled) throw new WrongCredentialError('credential refused: principal is disabled');
    const { token, expiresAt } = this.issueToken(row);
    return { M2, token, identity: identityOf(row), expiresAt };
  }

  /** Ends a token (logout). Unknown tokens are ignored. */
  revokeToken(token: string): void {
    this.#store.deleteToken(hashToken(token));
  }

  /** Forgets tokens past their lifetime (a durable store would otherwise keep them for ever). */
  sweepExpiredTokens(): number {
    return this.#store.deleteExpiredTokens(this.#now());
  }

  whoami(token: string): Identity {
    return identityOf(this.authenticate(token).principal);
  }

  /** Seven-operation generate (and operation 13): see KeyOperations.generate. */
  generateKey(token: string, options: NewKey): { ttag: string } {
    return this.keys.generate(token, options);
  }

  exportKey(token: string, ttag: string): { nid: number; key: Buffer } {
    return this.keys.exportKey(token, ttag);
  }

  readAcl(token: string, ttag: string): { owner: Identity; entries: AclEntryView[] } {
    return this.keys.readAcl(token, ttag);
  }

  grant(token: string, ttag: string, principal: string, rights?: readonly Right[]): Identity {
    return this.keys.grant(token, ttag, principal, rights);
  }

  revoke(token: string, ttag: string, principal: string): void {
    this.keys.revoke(token, ttag, principal);
  }

  close(): void {
    this.#pending.clear();
    this.#store.close();
  }

  /** The caller behind a token, or SESSION_EXPIRED (expired, revoked, unknown, disabled principal). */
  authenticate(token: string): TokenContext {
    const row = this.#store.token(hashToken(token));
    if (!row) throw new SessionExpiredError('invalid token');
    if (row.expiresAt !== undefined && row.expiresAt <= this.#now()) {
      this.#store.deleteToken(row.tokenHash);
      throw new SessionExpiredError('token expired');
    }
    const principal = this.#store.principalById(row.principalId);
    if (!principal || principal.disabled) throw new SessionExpiredError('invalid token');
    return { principal, token: row };
  }

  /** Issues a token for a principal (logins and minted sessions). */
  issueToken(
    principal: PrincipalRow,
    options: { ttlMs?: number | undefined; scope?: TokenRow['scope']; actingFor?: string; notAfter?: number | undefined } = {},
  ): { token: string; expiresAt: number | undefined } {
    const token = Buffer.from(this.#random.bytes(32)).toString('base64url');
    const issuedAt = this.#now();
    const ttlSeconds = this.parameters.value('tokenTtlSeconds');
    const ttl = options.ttlMs ?? (ttlSeconds === 0 ? undefined : ttlSeconds * 1000);
    let expiresAt = ttl === undefined ? undefined : issuedAt + ttl;
    if (options.notAfter !== undefined) expiresAt = expiresAt === undefined ? options.notAfter : Math.min(expiresAt, options.notAfter);
    this.#store.putToken({
      tokenHash: hashToken(token),
      principalId: principal.principalId,
      issuedAt,
      expiresAt,
      ...(options.scope === undefined ? {} : { scope: options.scope }),
      ...(options.actingFor === undefined ? {} : { actingFor: options.actingFor }),
    });
    return { token, expiresAt };
  }

  /**
   * Role check first (api-surface.md: ROLE_DENIED before ACL_DENIED before OUT_OF_SCOPE). A
   * principal's operations are the union of its roles and its groups' roles.
   */
  requireOperation(caller: TokenContext, operation: Operation): void {
    if (!principalOperations(this.#store, caller.principal).has(operation)) {
      throw new RoleDeniedError(`${operation}: not permitted for ${caller.principal.name}`);
    }
  }

  /**
   * The caller of an operation that is not about one key (directory, trust, server): authenticated,
   * holding the operation, and not a scoped token (a scoped session reaches its keys only).
   */
  authorizeOperation(token: string, operation: Operation): TokenContext {
    const caller = this.authenticate(token);
    this.requireOperation(caller, operation);
    this.requireScope(caller, undefined, 'manage');
    return caller;
  }

  /**
   * An operation on a principal that its owner may do with `own` (read itself, change its own
   * password) and anyone else only with `any`.
   */
  authorizeOwnOr(token: string, principal: string, own: Operation, any: Operation): TokenContext {
    const caller = this.authenticate(token);
    const held = principalOperations(this.#store, caller.principal);
    if (!(caller.principal.name === principal && held.has(own))) this.requireOperation(caller, any);
    this.requireScope(caller, undefined, 'manage');
    return caller;
  }

  /** The principal by name, or NOT_FOUND. */
  principalOrThrow(name: string): PrincipalRow {
    const row = this.#store.principalByName(name);
    if (!row) throw new NotFoundError(`no such principal: ${name}`);
    return row;
  }

  /** A scoped token reaches only its listed keys, with its listed rights; `manage` never. */
  requireScope(caller: TokenContext, ttag: string | undefined, right: Right | 'manage'): void {
    const scope = caller.token.scope;
    if (scope === undefined) return;
    const rights = ttag === undefined ? undefined : scope[ttag];
    if (rights === undefined || right === 'manage' || !rights.includes(right)) throw new OutOfScopeError();
  }

  /** The key for a caller holding `right` on it: NOT_FOUND, then ACL_DENIED, then OUT_OF_SCOPE. */
  authorizeKey(caller: TokenContext, ttag: string, right: Right): KeyRow {
    const key = this.keyOrThrow(ttag);
    if (!canUse(aclOf(key), this.requesterOf(caller.principal), right)) {
      throw new AclDeniedError(`${right}: not the owner and not granted`);
    }
    this.requireScope(caller, ttag, right);
    return key;
  }

  /** The key, when the caller owns it: NOT_FOUND, then ACL_DENIED. */
  ownedKey(caller: PrincipalRow, ttag: string, operation: string): KeyRow {
    const key = this.keyOrThrow(ttag);
    if (!isOwner(aclOf(key), this.requesterOf(caller))) throw new AclDeniedError(`${operation}: only the owner may do this`);
    return key;
  }

  /** The principal with its groups, for ACL decisions. */
  requesterOf(principal: PrincipalRow): Requester {
    return requesterOf(principal, this.#store);
  }

  get store(): EngineStore {
    return this.#store;
  }

  now(): number {
    return this.#now();
  }

  get random(): RandomSource {
    return this.#random;
  }

  /** The key, or NOT_FOUND. */
  keyOrThrow(ttag: string): KeyRow {
    const key = this.#store.key(ttag);
    if (!key) throw new NotFoundError('no such key');
    return key;
  }

  #decoy(user: string): { salt: Buffer; verifier: Buffer } {
    const salt = createHmac('sha256', this.#decoySecret).update(`salt:${user}`).digest().subarray(0, 16);
    const x = toBigInt(createHmac('sha256', this.#decoySecret).update(`x:${user}`).digest());
    const verifier = toBytes(modPow(SRP_GROUP_2048.g, x, SRP_GROUP_2048.N), SRP_GROUP_2048.byteLength);
    return { salt, verifier };
  }

  #sweepPending(): void {
    const now = this.#now();
    for (const [handle, pending] of this.#pending) if (pending.expiresAt <= now) this.#pending.delete(handle);
  }

  #loadDecoySecret(): Buffer {
    const kept = this.#store.setting('decoySecret');
    if (kept !== undefined) return Buffer.from(kept, 'base64');
    const secret = Buffer.from(this.#random.bytes(32));
    this.#store.putSetting('decoySecret', secret.toString('base64'));
    return secret;
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

function defaultRoles(kind: PrincipalKind): string[] {
  if (kind === 'service') return ['service'];
  if (kind === 'group') return [];
  return ['user'];
}
