import { X509Certificate } from 'node:crypto';
import { parseSenderKey } from '../../crypto/sender-key.js';
import { isRight, type Right } from '../../wire/acl.js';
import type { Identity } from '../../wire/identity.js';
import { grantedRights } from '../model/evaluate-access.js';
import { AclDeniedError, BadRequestError, DelegationDeniedError, KeyServerError, NotFoundError } from '../model/key-server-errors.js';
import { CertificateLogin, readPolicy } from './certificate-login.js';
import { anchorRefusal, buildPath, isAuthority, parseBundle } from './certificate-path.js';
import { type CertificateView, certificateId, certificateView, isValidAt, parseCertificate } from './certificates.js';
import type { EngineContext, TokenContext } from './engine-context.js';
import { delegationRefusal } from './engine-delegation.js';
import { DEFAULT_POLICY, type PrincipalRow, type ProvisioningPolicy } from './engine-model.js';
import { FIXED_ROLE } from './engine-roles.js';
import { issueToken } from './engine-tokens.js';
import { aclOf, identityOf } from './engine-views.js';

/** A token minted for a certificate login or a delegated session. */
export interface MintedToken {
  readonly token: string;
  readonly identity: Identity;
  readonly expiresAt: number | undefined;
  /** Thumbprint of the principal's registered sender key, when it has one. */
  readonly jkt?: string;
}

/**
 * The key server's certificate trust, certificate logins, sender keys, the provisioning policy and
 * the sessions minted from a session (scoped, delegated). It decides every check itself.
 */
export class IdentityOperations {
  readonly #ctx: EngineContext;
  readonly #certificates: CertificateLogin;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
    this.#certificates = new CertificateLogin(ctx);
  }

  /**
   * Adds a trusted certificate authority (docs/spec.md §4.12). Garbage is
   * CERTIFICATE_MALFORMED; a non-CA, an authority outside its validity period, with a key outside the
   * bundle limits or with a critical extension the path check does not process is BAD_REQUEST.
   */
  async addAuthority(token: string, pem: string): Promise<CertificateView> {
    await this.#ctx.auth.authorizeOperation(token, 'trust.write');
    const cert = parseCertificate(pem, 'pem');
    if (!isAuthority(cert)) throw new BadRequestError('pem: not a CA certificate (basicConstraints CA:TRUE is required)');
    const refusal = anchorRefusal(cert);
    if (refusal !== undefined) throw new BadRequestError(`pem: ${refusal}`);
    if (!isValidAt(cert, this.#ctx.now())) throw new BadRequestError('pem: the authority is outside its validity period');
    await this.#ctx.store.putCertificate({ id: certificateId(cert), pem: cert.toString(), role: 'authority', createdAt: this.#ctx.now() });
    return certificateView(cert);
  }

  /**
   * Enrolls a leaf that chains to a trusted authority to a principal (operation 42). A leaf that does
   * not chain (untrusted issuer, expired) or that is enrolled to another principal is CONFLICT with a
   * reason; a CA certificate, or a group as the principal, is BAD_REQUEST. A new certificate is a
   * credential change: every token the principal delegated (a service) ends.
   */
  async enroll(token: string, principal: string, pem: string): Promise<CertificateView> {
    await this.#ctx.auth.authorizeOperation(token, 'trust.enroll');
    const { leaf: cert, intermediates } = parseBundle(pem, 'pem');
    if (isAuthority(cert)) throw new BadRequestError('pem: a CA certificate is trusted as an authority, not enrolled');
    await this.#enrollable(principal);
    const chain = await buildPath(cert, intermediates, await this.#authorities(), this.#ctx.now());
    // Everything below is one unit of the store (it joins the operation's own): the caller, the
    // principal and the authority are read again after the path check.
    return await this.#ctx.store.atomically(async () => {
      await this.#ctx.auth.authorizeOperation(token, 'trust.enroll');
      const row = await this.#enrollable(principal);
      if (!chain.trusted) throw new KeyServerError('CONFLICT', `cannot enroll: ${chain.reason}`, { reason: chain.reason });
      if ((await this.#ctx.store.certificate(chain.anchorId))?.role !== 'authority') {
        const reason = 'the certificate does not chain to a trusted authority';
        throw new KeyServerError('CONFLICT', `cannot enroll: ${reason}`, { reason });
      }
      const id = certificateId(cert);
      const existing = await this.#ctx.store.certificate(id);
      if (existing?.principalId !== undefined && existing.principalId !== row.principalId) {
        const reason = 'the certificate is enrolled to another principal';
        throw new KeyServerError('CONFLICT', `cannot enroll: ${reason}`, { reason });
      }
      await this.#ctx.store.putCertificate({
        id,
        pem: cert.toString(),
        role: 'enrolled',
        principalId: row.principalId,
        createdAt: this.#ctx.now(),
      });
      await this.#ctx.store.deleteTokensActingFor(row.name);
      return certificateView(cert, row.name);
    });
  }

  async #enrollable(principal: string): Promise<PrincipalRow> {
    const row = await this.#ctx.auth.principalOrThrow(principal);
    if (row.kind === 'group') throw new BadRequestError('principal: a group cannot sign in with a certificate');
    return row;
  }

  /**
   * Registers a principal's sender key (operation 28): its own, or anyone's with admin rights. Every
   * token a service delegated ends: those sessions are bound to the key being replaced.
   */
  async putSenderKey(token: string, principal: string, jwk: unknown): Promise<{ jkt: string }> {
    await this.#ctx.auth.authorizeOwnOr(token, principal, 'principals.sender-key.own', 'principals.sender-key');
    const row = await this.#ctx.auth.principalOrThrow(principal);
    const senderKey = parseSenderKey(jwk, { allowRsa: true, field: 'jwk' }, BadRequestError);
    await this.#ctx.store.putPrincipal({ ...row, senderKey });
    await this.#ctx.store.deleteTokensActingFor(row.name);
    return { jkt: senderKey.jkt };
  }

  async readPolicy(token: string): Promise<ProvisioningPolicy> {
    await this.#ctx.auth.authorizeOperation(token, 'policy.read');
    return this.#policy();
  }

  /** Sets one provisioning parameter (operation 48); unknown name NOT_FOUND, wrong type BAD_REQUEST. */
  async setPolicy(token: string, name: string, value: unknown): Promise<ProvisioningPolicy> {
    await this.#ctx.auth.authorizeOperation(token, 'policy.write');
    const policy = { ...(await this.#policy()), [name]: value };
    if (!(name in DEFAULT_POLICY)) throw new NotFoundError(`no such policy parameter: ${name}`);
    if (!isPolicy(policy)) throw new BadRequestError(`value: wrong type for ${name}`);
    // docs/spec.md §4.19 item 6: a certificate can never be provisioned into an administrator.
    if (policy.defaultRoles.includes(FIXED_ROLE)) throw new BadRequestError('value: defaultRoles can never include admin');
    // Nor through a group: a default group holding admin would hand it to every provisioned principal.
    let adminGroup: string | undefined;
    for (const group of policy.defaultGroups) {
      if ((await this.#ctx.store.principalByName(group))?.roles.includes(FIXED_ROLE) === true) adminGroup ??= group;
    }
    if (adminGroup !== undefined) throw new BadRequestError(`value: defaultGroups can never name ${adminGroup}, which holds admin`);
    await this.#ctx.store.putSetting('policy', JSON.stringify(policy));
    return policy;
  }

  /** First leg of certificate login (operation 2); see CertificateLogin. */
  async certificateChallenge(pem: string): Promise<{ challengeId: string; challenge: string; expiresAt: number }> {
    return this.#certificates.challenge(pem);
  }

  /**
   * Second leg (operation 3): the signature proves possession of the certificate's key; the path
   * was checked at the first leg and its authority must still be trusted.
   */
  async certificateLogin(challengeId: string, signature: Buffer): Promise<MintedToken> {
    // One unit of the store: a principal the login provisions and its token land together.
    return await this.#ctx.store.atomically(async () => {
      const principal = await this.#certificates.login(challengeId, signature);
      const { token, expiresAt } = await issueToken(this.#ctx, principal);
      return { token, identity: identityOf(principal), expiresAt, ...(principal.senderKey ? { jkt: principal.senderKey.jkt } : {}) };
    });
  }

  /**
   * A token narrowed to listed keys and rights (operation 4). Rights default to every right the
   * minter holds on each key; a scoped token cannot mint further sessions.
   */
  async mintScoped(token: string, request: { objects: readonly string[]; rights?: readonly string[]; ttlMs: number }) {
    const caller = await this.#ctx.auth.authenticate(token);
    await this.#ctx.auth.requireOperation(caller, 'session.scope');
    if (caller.token.scope !== undefined || caller.token.actingFor !== undefined) {
      throw new KeyServerError('OUT_OF_SCOPE', 'a scoped or delegated session cannot mint sessions');
    }
    const asked = request.rights?.map((right) => (isRight(right) ? right : badRight(right)));
    const scope: Record<string, Right[]> = {};
    for (const object of request.objects) {
      // A scope names keys by ttag, never by alias: one named by alias is scoped by the ttag it resolves to.
      const key = await this.#ctx.auth.keyOrThrow(object);
      const ttag = key.ttag;
      // docs/spec.md §4.5b item 4: a conditioned right counts as held here; its condition applies at each use.
      const held = grantedRights(aclOf(key), await this.#ctx.auth.requesterOf(caller.principal));
      const rights = asked === undefined ? held : held.filter((right) => asked.includes(right));
      if (rights.length === 0 || (asked !== undefined && rights.length !== asked.length)) {
        throw new AclDeniedError('the session cannot be scoped to rights its minter does not hold');
      }
      scope[ttag] = rights;
    }
    const minted = await issueToken(this.#ctx, caller.principal, { ttlMs: request.ttlMs, scope, notAfter: caller.token.expiresAt });
    return { ...minted, identity: identityOf(caller.principal), scope };
  }

  /**
   * A token acting as an externally authenticated principal (operation 5), named or by certificate.
   * Only a principal holding `session.delegate` may mint one, and not from a minted session.
   */
  async mintDelegated(token: string, target: { principal?: string; certificate?: string }): Promise<MintedToken & { actingFor: string }> {
    await this.#delegatingCaller(token);
    const byCertificate = target.certificate === undefined ? undefined : await this.#certificates.delegationTarget(target.certificate);
    // From here on one unit of the store (it joins the operation's own): the caller is read again after
    // the path check, and the delegation is decided before anything is written (a refused one
    // provisions nobody); a principal it provisions and the token land together.
    return await this.#ctx.store.atomically(async () => {
      const caller = await this.#delegatingCaller(token);
      const plan = await byCertificate?.();
      const principal = plan?.target ?? (await this.#ctx.store.principalByName(target.principal ?? ''));
      if (!principal || principal.kind === 'group') throw new NotFoundError(`no such principal: ${target.principal ?? '(certificate)'}`);
      if (principal.disabled) throw new KeyServerError('ROLE_DENIED', `principal ${principal.name} is disabled`);
      const refusal = await delegationRefusal(this.#ctx.store, caller.principal, principal, plan?.groupIds);
      if (refusal !== undefined) throw new DelegationDeniedError(refusal);
      return await this.#issueDelegated(caller, plan === undefined ? principal : await plan.commit());
    });
  }

  /** Only a principal holding `session.delegate` mints a delegated session, and not from a minted one. */
  async #delegatingCaller(token: string): Promise<TokenContext> {
    const caller = await this.#ctx.auth.authenticate(token);
    await this.#ctx.auth.requireOperation(caller, 'session.delegate');
    if (caller.token.scope !== undefined || caller.token.actingFor !== undefined) {
      throw new KeyServerError('OUT_OF_SCOPE', 'a scoped or delegated session cannot mint sessions');
    }
    return caller;
  }

  async #issueDelegated(caller: TokenContext, principal: PrincipalRow): Promise<MintedToken & { actingFor: string }> {
    const { token: minted, expiresAt } = await issueToken(this.#ctx, principal, {
      actingFor: caller.principal.name,
      notAfter: caller.token.expiresAt,
    });
    return { token: minted, identity: identityOf(principal), expiresAt, actingFor: caller.principal.name };
  }

  async #authorities(): Promise<X509Certificate[]> {
    return (await this.#ctx.store.certificates('authority')).map((row) => new X509Certificate(row.pem));
  }

  async #policy(): Promise<ProvisioningPolicy> {
    return await readPolicy(this.#ctx);
  }
}

function badRight(right: string): never {
  throw new BadRequestError(`rights: unknown right ${right}`);
}

function isPolicy(value: Record<string, unknown>): value is Record<string, unknown> & ProvisioningPolicy {
  const strings = (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === 'string');
  return (
    typeof value.autoProvision === 'boolean' &&
    (value.nameAttribute === 'CN' || value.nameAttribute === 'UID' || value.nameAttribute === 'emailAddress') &&
    strings(value.defaultRoles) &&
    strings(value.defaultGroups) &&
    Object.keys(value).length === 4
  );
}
