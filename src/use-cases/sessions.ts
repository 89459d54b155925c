import { parseSenderKey } from '../crypto/sender-key.js';
import { RoleDeniedError } from '../domain/acl/acl.errors.js';
import { BadRequestError, isKeygateError } from '../domain/errors/index.js';
import { type SignInProofRequest, verifySignInProof } from '../domain/proof/verify-sign-in-proof.js';
import type { Secret } from '../domain/secret/secret.js';
import { LoginFailedError, SessionRequiredError, SessionUnknownError } from '../domain/session/session.errors.js';
import type { SessionRecord } from '../domain/session/session.js';
import { isWellFormedSessionId, newSessionId, sessionKey, sessionRef } from '../domain/session/session-id.js';
import { SessionLimitError } from '../domain/throttle/throttle.errors.js';
import type { Clock } from '../ports/clock.port.js';
import type { KeyServer, KeyServerLogin } from '../ports/key-server.port.js';
import type { KeySetSource } from '../ports/key-set-source.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { Random } from '../ports/random.port.js';
import type { ReplayCache } from '../ports/replay-cache.port.js';
import type { SessionStore } from '../ports/session-store.port.js';
import type { ThrottleStore } from '../ports/throttle-store.port.js';
import type { Right } from '../wire/acl.js';
import type { LoginThrottle } from './login-throttle.js';
import { MintRate } from './mint-rate.js';
import { PendingLogins } from './pending-logins.js';
import type { Caller } from './session-context.js';
import { TokenRevoker } from './token-revoker.js';
import { withConnection } from './with-connection.js';
import { WorkloadKeySources } from './workload-key-sources.js';
import { rememberJti, rememberProof, signInWorkload, type WorkloadSignInDeps } from './workload-sign-in.js';

export interface SessionUseCasesDeps {
  readonly keyServer: KeyServer;
  readonly store: SessionStore;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  /** Lifetime of a gateway session in ms (the key-server token may expire earlier). */
  readonly sessionTtlMs: number;
  /** Failed-login throttling and the per-address request rate (docs/spec.md §10). */
  readonly throttle: LoginThrottle;
  /** Live sessions one principal may hold (TE_GATEWAY_MAX_SESSIONS_PER_PRINCIPAL). */
  readonly maxSessionsPerPrincipal: number;
  /** Where the minting rate of scoped and delegated sessions is counted. */
  readonly throttleStore: ThrottleStore;
  /** Scoped and delegated sessions one principal may mint per minute (TE_GATEWAY_SESSION_MINTS_PER_MINUTE). */
  readonly sessionMintsPerMinute: number;
  /** Trusted issuers' key sets, and the replay cache a workload token's `jti` is recorded in (docs/spec.md §4.24). */
  readonly keySets: KeySetSource;
  readonly replayCache: ReplayCache;
}

/** A sign-in request's facts for its DPoP proof (docs/spec.md §4.24 item 2): every `DPoP` header value received. */
export interface SignInPresented extends SignInProofRequest {
  readonly proofs: readonly string[];
}

/** A minted session: the id goes to the client exactly once, here. */
export interface MintedSession {
  readonly sessionId: string;
  readonly session: SessionRecord;
}

/** Sign-in, sign-out and session lookup (docs/spec.md §2.4). */
export class SessionUseCases {
  readonly #deps: SessionUseCasesDeps;
  readonly #revoker: TokenRevoker;
  readonly #pending: PendingLogins;
  readonly #mintRate: MintRate;
  readonly #workload: WorkloadSignInDeps;

  constructor(deps: SessionUseCasesDeps) {
    this.#deps = deps;
    this.#workload = { keyServer: deps.keyServer, keySets: deps.keySets, throttle: deps.throttle, keySources: new WorkloadKeySources() };
    this.#revoker = new TokenRevoker(deps.keyServer, deps.logger);
    this.#pending = new PendingLogins(deps.clock);
    this.#mintRate = new MintRate(deps.throttleStore, deps.clock, deps.sessionMintsPerMinute);
  }

  /**
   * Password login through the key server (SRP-6a). The password is dropped when this returns; the
   * token is stored server-side under a fresh opaque session id.
   */
  async loginWithPassword(user: string, password: Secret, clientAddress: string): Promise<MintedSession> {
    await this.#deps.throttle.countRequest(clientAddress);
    await this.#revoker.retryPending();
    const login = await this.#guarded(user, clientAddress, async (): Promise<KeyServerLogin> => {
      try {
        return await this.#deps.keyServer.login(user, password);
      } catch (error) {
        if (isKeygateError(error) && ['WRONG_CREDENTIAL', 'KEY_SERVER_UNAVAILABLE', 'LOGIN_FAILED'].includes(error.code)) throw error;
        throw new LoginFailedError(isKeygateError(error) ? error.detail : 'login failed', error);
      }
    });
    return this.#mint({ identity: login.identity, token: login.token, kind: 'password' });
  }

  /**
   * One SRP proof of `user`'s password from `clientAddress`, outside a login (an own-password
   * change's `currentPassword`): the same throttle counters, the same delay and the same cap of logins
   * in flight per address as a login, so it is no way around them. WRONG_CREDENTIAL when wrong.
   */
  provePassword(user: string, password: Secret, clientAddress: string): Promise<KeyServerLogin> {
    return this.#guarded(user, clientAddress, () => this.#deps.keyServer.login(user, password));
  }

  /** A password check, held within the address's logins in flight, its wait and refusals by the throttle. */
  #guarded<T>(user: string, clientAddress: string, check: () => Promise<T>): Promise<T> {
    return this.#pending.login(clientAddress, () => this.#deps.throttle.guardPassword(user, clientAddress, check));
  }

  /**
   * First leg of a certificate login (operation 2). The address is counted before the
   * key server checks the path, the costly part: an address that must wait is refused without it, the
   * request holds one of the address's challenge places while it runs, and a refused certificate counts
   * as a failed login against the address, so a flood of bad bundles from one address soon costs nothing.
   */
  async certificateChallenge(certificatePem: string, clientAddress: string) {
    const { throttle } = this.#deps;
    await throttle.countRequest(clientAddress);
    await throttle.assertAllowed(undefined, clientAddress);
    return this.#pending.challenge(clientAddress, () =>
      this.#deps.keyServer.certificateChallenge(certificatePem).catch(async (error: unknown) => {
        if (isKeygateError(error) && ['WRONG_CREDENTIAL', 'CERTIFICATE_MALFORMED'].includes(error.code))
          await throttle.recordFailedPassword(undefined, clientAddress);
        throw error;
      }),
    );
  }

  /**
   * Second leg (operation 3): the key server checks the signature, the chain and the enrollment. The
   * session is bound when the principal has a registered sender key.
   */
  async loginWithCertificate(challengeId: string, signature: Buffer, clientAddress: string): Promise<MintedSession> {
    const { throttle } = this.#deps;
    await throttle.countRequest(clientAddress);
    await throttle.assertAllowed(undefined, clientAddress);
    this.#pending.answered(clientAddress, challengeId);
    const login = await this.#deps.keyServer.certificateLogin(challengeId, signature).catch(async (error: unknown) => {
      // A refused signature counts against the address (there is no name to count against).
      if (isKeygateError(error) && error.code === 'WRONG_CREDENTIAL') await throttle.recordFailedPassword(undefined, clientAddress);
      throw error;
    });
    return this.#mint({ identity: login.identity, token: login.token, kind: 'certificate', ...(login.jkt ? { jkt: login.jkt } : {}) });
  }

  /**
   * A workload's sign-in with its platform's token (docs/spec.md §4.24): the key server verifies it;
   * the session is unbound and lives no longer than the token. A token the issuer refuses is rolled
   * back: a `jti` seen before revokes the token just issued.
   */
  async loginWithJwt(request: { issuer?: string | undefined; token: string }, clientAddress: string, presented?: SignInPresented) {
    // A proof is checked before anything reaches the key server (docs/spec.md §5.3 order, §4.24 item 2).
    const proof =
      presented === undefined || presented.proofs.length === 0
        ? undefined
        : verifySignInProof(presented.proofs, presented, this.#deps.clock.now());
    await this.#revoker.retryPending();
    const login = await signInWorkload(this.#workload, request, clientAddress, proof?.jkt);
    try {
      if (login.requireJti) await rememberJti(this.#deps.replayCache, login);
      if (proof !== undefined) await rememberProof(this.#deps.replayCache, proof, login.identity.principalId);
    } catch (error) {
      await this.#revoker.revoke(login.token, 'jwt');
      throw error;
    }
    const minted = await this.#mint(
      { identity: login.identity, token: login.token, kind: 'jwt', ...(proof === undefined ? {} : { jkt: proof.jkt }) },
      Math.min(this.#deps.sessionTtlMs, (login.expiresAt ?? Infinity) - this.#deps.clock.now()),
    );
    return { ...minted, issuer: login.issuer, subject: login.subject, jti: login.jti };
  }

  /**
   * A session narrowed to listed keys and rights, minutes long, bound at mint to `senderKey`
   * (operation 4). The key server narrows the token itself, so the scope holds even there. Past the
   * caller's minting rate: 429 RATE_LIMITED, and nothing is minted.
   */
  async mintScoped(
    caller: Caller,
    request: { objects: readonly string[]; rights?: readonly Right[] | undefined; senderKey: unknown; ttlSeconds: number },
  ): Promise<MintedSession> {
    const senderKey = parseSenderKey(request.senderKey, { allowRsa: false, field: 'senderKey' }, BadRequestError);
    await this.#mintRate.count(caller.session.identity.principalId);
    const ttlMs = request.ttlSeconds * 1000;
    const minted = await withConnection(this.#deps.keyServer, caller, (connection) =>
      connection.call('mintScoped', { objects: [...request.objects], rights: request.rights, ttlMs }),
    );
    const rights = [...new Set(Object.values(minted.scope).flat())];
    return this.#mint(
      { identity: minted.identity, token: minted.token, kind: 'scoped', jkt: senderKey.jkt, objects: Object.keys(minted.scope), rights },
      Math.min(ttlMs, (minted.expiresAt ?? Infinity) - this.#deps.clock.now()),
    );
  }

  /**
   * A session acting as an externally authenticated principal (operation 5). Only a bound service
   * session may mint one; it is bound to that service's key, and counts against its minting rate.
   */
  async mintDelegated(caller: Caller, target: { principal: string } | { certificate: string }): Promise<MintedSession> {
    const jkt = caller.session.jkt;
    if (jkt === undefined) throw new RoleDeniedError('only a bound service session may mint a delegated session');
    await this.#mintRate.count(caller.session.identity.principalId);
    const minted = await withConnection(this.#deps.keyServer, caller, (connection) => connection.call('mintDelegated', target));
    return this.#mint({ identity: minted.identity, token: minted.token, kind: 'delegated', jkt, actingFor: minted.actingFor });
  }

  /**
   * Stores a new session for a token just issued. At the principal's cap it is refused (429
   * SESSION_LIMIT, nothing evicted); a token left without a stored session is revoked at once.
   */
  async #mint(fields: Omit<SessionRecord, 'ref' | 'createdAt' | 'expiresAt'>, ttlMs = this.#deps.sessionTtlMs): Promise<MintedSession> {
    const { store, clock, random, logger } = this.#deps;
    const sessionId = newSessionId(random);
    const now = clock.now();
    const session: SessionRecord = { ...fields, ref: sessionRef(sessionId), createdAt: now, expiresAt: now + Math.max(ttlMs, 0) };
    try {
      await this.#assertBelowCap(session.identity.principalId, now);
      await store.put(sessionKey(sessionId), session);
    } catch (error) {
      await this.#revoker.revoke(fields.token, session.ref);
      throw error;
    }
    logger.info('session minted', {
      session: session.ref,
      user: session.identity.user,
      kind: session.kind,
      bound: session.jkt !== undefined,
    });
    return { sessionId, session };
  }

  /** A cap of live sessions per principal (docs/spec.md §2.4 item 2). Concurrent logins may pass it by their number. */
  async #assertBelowCap(principalId: string, now: number): Promise<void> {
    const max = this.#deps.maxSessionsPerPrincipal;
    // Counted, not listed, on every login: a principal may hold many sessions (a service, the bench's
    // 20,000); only a refusal lists them, for the earliest expiry its Retry-After names.
    if ((await this.#deps.store.countByPrincipal(principalId)) < max) return;
    const live = await this.#deps.store.listByPrincipal(principalId);
    if (live.length < max) return;
    const nextExpiry = Math.min(...live.map((record) => record.expiresAt));
    throw new SessionLimitError(max, (nextExpiry - now) / 1000);
  }

  /** Resolves a presented session id to its live session; never says which of the two failures it was. */
  async authenticate(sessionId: string | undefined): Promise<Caller> {
    if (sessionId === undefined || sessionId === '') throw new SessionRequiredError();
    if (!isWellFormedSessionId(sessionId)) throw new SessionUnknownError();
    const key = sessionKey(sessionId);
    const session = await this.#deps.store.get(key);
    if (!session) throw new SessionUnknownError();
    return { session, key };
  }

  /**
   * Ends the session: the record is dropped first (so the id is dead even if the key server is
   * unreachable), then the token is revoked at the key server; a failed revocation is retried later.
   */
  async logout(caller: Caller): Promise<void> {
    await this.#deps.store.delete(caller.key);
    await this.#revoker.retryPending();
    await this.#revoker.revoke(caller.session.token, caller.session.ref);
    this.#deps.logger.info('session ended', { session: caller.session.ref });
  }

  /** The live sessions of the caller's principal (docs/spec.md §4.4); a scoped session sees only itself (docs/spec.md §12 item 9). */
  async listOwn(caller: Caller): Promise<SessionRecord[]> {
    if (caller.session.kind === 'scoped') return [caller.session];
    return this.#deps.store.listByPrincipal(caller.session.identity.principalId);
  }

  /** Number of live sessions (the health answer's `sessions`, docs/spec.md §2.4 item 6). */
  count(): Promise<number> {
    return this.#deps.store.count();
  }
}
