import type { RandomSource } from '../../crypto/random-source.js';
import type { Identity } from '../../wire/identity.js';
import { AliasOperations } from './alias-operations.js';
import { CertificateOperations } from './certificate-operations.js';
import { CryptoOperations } from './crypto-operations.js';
import { DEFAULT_DELETION_DAYS, type DeletionDays, deletionDaysProblem } from './deletion-days.js';
import { type ClaimedDestruction, claimDestructions, confirmDestruction, type DeletionSweep, destroyDueKeys } from './deletion-sweep.js';
import { StoreAuthority } from './engine-authority.js';
import type { EngineContext } from './engine-context.js';
import type { PrincipalRow } from './engine-model.js';
import { EngineParameters } from './engine-parameters.js';
import type { EngineStore } from './engine-store.port.js';
import { hashToken, issueToken, type TokenOptions } from './engine-tokens.js';
import { identityOf } from './engine-views.js';
import { GroupOperations } from './group-operations.js';
import { purgeIdempotencyRecords } from './idempotent.js';
import { IdentityOperations } from './identity-operations.js';
import { IssuerOperations } from './issuer-operations.js';
import { KeyDeletionOperations } from './key-deletion.js';
import { KeyInventory } from './key-inventory.js';
import { KeyOperations } from './key-operations.js';
import { KeyPublication } from './key-publication.js';
import { DEFAULT_MAX_KEY_VERSIONS } from './key-versions.js';
import { LoginOperations } from './login-operations.js';
import { createPrincipal, type NewPrincipal } from './principal-factory.js';
import { PrincipalOperations } from './principal-operations.js';
import { RoleOperations } from './role-operations.js';
import { type RotationSweep, rotateDueKeys } from './scheduled-rotation.js';
import { ServerOperations } from './server-operations.js';
import { SigningKeyCache } from './signing-key-cache.js';
import { SigningOperations } from './signing-operations.js';
import { WorkloadLogin } from './workload-login.js';

export { aclOf, identityOf } from './engine-views.js';
export type { NewPrincipal } from './principal-factory.js';

export interface EngineOptions {
  readonly store: EngineStore;
  readonly now: () => number;
  readonly random: RandomSource;
  /** Token lifetime in ms; undefined: tokens never expire. The default of `tokenTtlSeconds`. */
  readonly tokenTtlMs?: number | undefined;
  /** The most versions a key may have; default DEFAULT_MAX_KEY_VERSIONS (docs/spec.md §4.22 item 2). */
  readonly maxKeyVersions?: number | undefined;
  /** The fewest and most days a scheduled deletion waits; default 7 and 30 (docs/spec.md §4.23 item 5). */
  readonly deletionDays?: DeletionDays | undefined;
  /** The key server's version (operation 43). */
  readonly version?: string | undefined;
  /** How the key server was started, shown with secrets redacted (operation 44). */
  readonly config?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The key-server engine: principals with SRP-6a verifiers, tokens, keys with per-key ACLs. It runs
 * in-process (the embedded adapter) or behind the TLS daemon; either way it decides every
 * authorization itself and throws key-server errors whose codes travel (src/wire/error-codes.ts).
 *
 * Each family of operations lives in a module of its own (`engine.keys`, `engine.crypto`,
 * `engine.identity`, ...) and is given one narrow EngineContext, never the engine; each operation
 * takes the token first and plain JSON-able values. The protocol's OPERATIONS table
 * (src/keyserver/protocol/protocol-operations.ts) names the engine function of every operation.
 */
export class KeyServerEngine {
  /** SRP-6a password login (the two steps before a token exists). */
  readonly login: LoginOperations;
  /** Key lifecycle and key ACLs (docs/spec.md §4.6, §4.7). */
  readonly keys: KeyOperations;
  /** The key list and tags (docs/spec.md §4.23 items 1 and 2). */
  readonly inventory: KeyInventory;
  /** Scheduled deletion (docs/spec.md §4.23 item 5). */
  readonly keyDeletion: KeyDeletionOperations;
  /** Data cryptography under the raw key (9-12). */
  readonly crypto: CryptoOperations;
  /** Signing keys: sign, verify, sign-jwt, public keys (docs/spec.md §4.25). */
  readonly signing: SigningOperations;
  /** A signing key's published JWKS (docs/spec.md §4.25 item 7). */
  readonly publication: KeyPublication;
  /** Aliases of keys (docs/spec.md §4.23 item 3). */
  readonly aliases: AliasOperations;
  /** Principals (21-27), group membership (29-31), roles (32-34). */
  readonly principals: PrincipalOperations;
  readonly groups: GroupOperations;
  readonly roles: RoleOperations;
  /** Certificate objects (35-38) and the list and removal of trusted authorities (39, 41). */
  readonly certificates: CertificateOperations;
  /** Certificate trust and login, sender keys, policy, scoped and delegated tokens. */
  readonly identity: IdentityOperations;
  /** Trusted issuers of workload identity tokens (docs/spec.md §4.24). */
  readonly issuers: IssuerOperations;
  /** Workload sign-in with a trusted issuer's token (docs/spec.md §4.24 item 2). */
  readonly workload: WorkloadLogin;
  /** Version, configuration and parameters (43-46). */
  readonly server: ServerOperations;
  readonly parameters: EngineParameters;
  readonly #ctx: EngineContext;

  constructor(options: EngineOptions) {
    this.parameters = new EngineParameters(options.store, {
      tokenTtlSeconds: options.tokenTtlMs === undefined ? 0 : Math.ceil(options.tokenTtlMs / 1000),
      loginHandshakeSeconds: 60,
      maxPendingLogins: 10_000,
    });
    const ctx: EngineContext = {
      auth: new StoreAuthority(options.store, options.now),
      store: options.store,
      now: options.now,
      random: options.random,
      parameters: this.parameters,
      maxKeyVersions: options.maxKeyVersions ?? DEFAULT_MAX_KEY_VERSIONS,
      deletionDays: checkedDeletionDays(options.deletionDays ?? DEFAULT_DELETION_DAYS),
    };
    this.#ctx = ctx;
    this.login = new LoginOperations(ctx);
    this.keys = new KeyOperations(ctx);
    this.inventory = new KeyInventory(ctx);
    this.keyDeletion = new KeyDeletionOperations(ctx);
    this.signing = new SigningOperations(ctx, new SigningKeyCache());
    this.crypto = new CryptoOperations(ctx, this.signing);
    this.publication = new KeyPublication(ctx);
    this.aliases = new AliasOperations(ctx);
    this.principals = new PrincipalOperations(ctx);
    this.groups = new GroupOperations(ctx);
    this.roles = new RoleOperations(ctx);
    this.certificates = new CertificateOperations(ctx);
    this.identity = new IdentityOperations(ctx);
    this.issuers = new IssuerOperations(ctx);
    this.workload = new WorkloadLogin(ctx);
    this.server = new ServerOperations(ctx, { version: options.version ?? 'unknown', config: options.config ?? {} });
  }

  /** Makes and reads what the engine keeps in its store before it serves (its decoy secret); one unit. */
  prepare(): Promise<void> {
    return this.#ctx.store.atomically(() => this.login.prepare());
  }

  /** Runs one operation as one unit of the store (`EngineStore.atomically`). */
  atomically<T>(operation: () => Promise<T>): Promise<T> {
    return this.#ctx.store.atomically(operation);
  }

  /** Creates a principal (seeding). A password makes an SRP verifier; it is not kept. */
  async createPrincipal(input: NewPrincipal): Promise<Identity> {
    return await createPrincipal(this.#ctx, input);
  }

  async hasPrincipal(name: string): Promise<boolean> {
    return (await this.#ctx.store.principalByName(name)) !== undefined;
  }

  /** Issues a token for a principal without a login (seeding and tests of the engine). */
  async issueToken(principal: PrincipalRow, options: TokenOptions = {}): Promise<{ token: string; expiresAt: number | undefined }> {
    return await issueToken(this.#ctx, principal, options);
  }

  async whoami(token: string): Promise<Identity> {
    return identityOf((await this.#ctx.auth.authenticate(token)).principal);
  }

  /** Ends a token (logout). Unknown tokens are ignored. */
  async revokeToken(token: string): Promise<void> {
    await this.#ctx.store.deleteToken(hashToken(token));
  }

  /** Forgets tokens past their lifetime (a durable store would otherwise keep them for ever). */
  async sweepExpiredTokens(): Promise<number> {
    return await this.#ctx.store.deleteExpiredTokens(this.#ctx.now());
  }

  /** Rotates the keys whose rotation period has elapsed, each exactly once (scheduled-rotation.ts). */
  async rotateDue(): Promise<RotationSweep> {
    return await rotateDueKeys(this.#ctx);
  }

  /** Destroys the keys whose scheduled deletion is due, each exactly once (deletion-sweep.ts). */
  async destroyDue(): Promise<DeletionSweep> {
    return await destroyDueKeys(this.#ctx);
  }

  /**
   * A gateway's own calls (no token; docs/keyserver-protocol.md "Gateway calls"): the destructions whose
   * audit record it should store, claimed for it, and its confirmation once stored (deletion-sweep.ts).
   */
  async claimDestructions(): Promise<ClaimedDestruction[]> {
    return await claimDestructions(this.#ctx);
  }

  async confirmDestruction(ttag: string): Promise<void> {
    await confirmDestruction(this.#ctx, ttag);
  }

  /** Forgets idempotency records whose 24 hours have passed (idempotent.ts); answers how many went. */
  async sweepIdempotencyRecords(): Promise<number> {
    return await this.#ctx.store.atomically(() => purgeIdempotencyRecords(this.#ctx));
  }

  async close(): Promise<void> {
    this.login.clear();
    await this.#ctx.store.close();
  }
}

/** The deletion bounds as given, or a thrown Error naming the problem (the daemon and the app check them first, as a ConfigError). */
function checkedDeletionDays(days: DeletionDays): DeletionDays {
  const problem = deletionDaysProblem(days);
  if (problem !== undefined) throw new Error(problem);
  return days;
}
