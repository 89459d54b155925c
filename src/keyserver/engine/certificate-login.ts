import { X509Certificate } from 'node:crypto';
import { KeyServerError, WrongCredentialError } from '../model/key-server-errors.js';
import { verifyChallengeSignature } from '../model/verify-challenge-signature.js';
import { buildPath, parseBundle, subjectField } from './certificate-path.js';
import { certificateId, isValidAt } from './certificates.js';
import type { EngineContext } from './engine-context.js';
import { DEFAULT_POLICY, type PrincipalRow, type ProvisioningPolicy } from './engine-model.js';
import { FIXED_ROLE } from './engine-roles.js';
import { createPrincipal } from './principal-factory.js';

const CHALLENGE_MS = 60_000;
const MAX_PENDING_CHALLENGES = 10_000;

/**
 * A challenge in flight: the certificate's id and the authority its path ended at. The leaf itself is
 * kept only for a trusted certificate that auto-provisioning may turn into a principal.
 */
interface PendingChallenge {
  readonly certId: string;
  readonly anchorId: string;
  readonly provisionable?: X509Certificate;
  readonly challenge: Buffer;
  readonly expiresAt: number;
}

export function readPolicy(ctx: Pick<EngineContext, 'store'>): ProvisioningPolicy {
  const stored = ctx.store.setting('policy');
  return stored === undefined ? DEFAULT_POLICY : (JSON.parse(stored) as ProvisioningPolicy);
}

/** Certificate login (api-surface.md operations 2-3) and the certificate side of delegation. */
export class CertificateLogin {
  readonly #ctx: EngineContext;
  readonly #challenges = new Map<string, PendingChallenge>();

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * First leg: 32 random bytes, single use, valid 60 s. A certificate that does not chain to a trusted
   * authority, or (provisioning off) is not enrolled, is refused before anything is kept (issue 12 §3).
   */
  challenge(pem: string): { challengeId: string; challenge: string; expiresAt: number } {
    const { leaf, intermediates } = parseBundle(pem);
    const anchorId = this.#trustedPath(leaf, intermediates);
    const certId = certificateId(leaf);
    const enrolled = this.#enrolledPrincipal(certId) !== undefined;
    if (!enrolled && !readPolicy(this.#ctx).autoProvision) throw new WrongCredentialError('credential refused: the certificate is not enrolled');
    const now = this.#ctx.now();
    for (const [id, pending] of this.#challenges) if (pending.expiresAt <= now) this.#challenges.delete(id);
    if (this.#challenges.size >= MAX_PENDING_CHALLENGES) throw new KeyServerError('KEY_SERVER_FAILED', 'too many certificate logins in progress');
    const challengeId = Buffer.from(this.#ctx.random.bytes(16)).toString('base64url');
    const challenge = Buffer.from(this.#ctx.random.bytes(32));
    const expiresAt = now + CHALLENGE_MS;
    this.#challenges.set(challengeId, { certId, anchorId, challenge, expiresAt, ...(enrolled ? {} : { provisionable: leaf }) });
    return { challengeId, challenge: challenge.toString('base64url'), expiresAt };
  }

  /** Second leg: the signature over the challenge proves possession of the certificate's key. */
  login(challengeId: string, signature: Buffer): PrincipalRow {
    const pending = this.#challenges.get(challengeId);
    this.#challenges.delete(challengeId);
    const now = this.#ctx.now();
    if (!pending || pending.expiresAt <= now) throw new WrongCredentialError('empty data: unknown or expired challenge');
    const stored = this.#ctx.store.certificate(pending.certId);
    const cert = stored?.role === 'enrolled' ? new X509Certificate(stored.pem) : pending.provisionable;
    if (!cert) throw new WrongCredentialError('credential refused: the certificate is not enrolled');
    if (!verifyChallengeSignature(cert.publicKey, pending.challenge, signature))
      throw new WrongCredentialError('credential refused: the signature does not verify');
    if (this.#ctx.store.certificate(pending.anchorId)?.role !== 'authority' || !isValidAt(cert, now)) {
      throw new WrongCredentialError('credential refused: the certificate is no longer trusted');
    }
    return this.#resolve(cert, pending.anchorId);
  }

  /** The principal a certificate bundle names (delegated `{ certificate }`): enrolled, or provisioned. */
  principalFor(pem: string): PrincipalRow {
    const { leaf, intermediates } = parseBundle(pem);
    return this.#resolve(leaf, this.#trustedPath(leaf, intermediates));
  }

  /** Drops every challenge in flight (the engine closes). */
  clear(): void {
    this.#challenges.clear();
  }

  #trustedPath(leaf: X509Certificate, intermediates: readonly X509Certificate[]): string {
    const anchors = this.#ctx.store.certificates('authority').map((row) => new X509Certificate(row.pem));
    const path = buildPath(leaf, intermediates, anchors, this.#ctx.now());
    if (!path.trusted) throw new WrongCredentialError(`credential refused: ${path.reason}`);
    return path.anchorId;
  }

  #enrolledPrincipal(certId: string): PrincipalRow | undefined {
    const row = this.#ctx.store.certificate(certId);
    return row?.role === 'enrolled' ? this.#ctx.store.principalById(row.principalId ?? '') : undefined;
  }

  #resolve(cert: X509Certificate, anchorId: string): PrincipalRow {
    const principal = this.#enrolledPrincipal(certificateId(cert)) ?? this.#provision(cert, anchorId);
    if (principal.disabled) throw new WrongCredentialError('credential refused: principal is disabled');
    return principal;
  }

  /**
   * Auto-provisioning of a trusted but not enrolled certificate, when the policy allows it. It only
   * ever creates a principal (issue 12 §2): a name taken by anyone but a principal provisioned from
   * the same authority is CONFLICT `PRINCIPAL_EXISTS`. `authorityId` is the anchor of the path.
   */
  #provision(cert: X509Certificate, authorityId: string): PrincipalRow {
    const policy = readPolicy(this.#ctx);
    if (!policy.autoProvision) throw new WrongCredentialError('credential refused: the certificate is not enrolled');
    const name = subjectField(cert, policy.nameAttribute);
    if (name === undefined) throw new WrongCredentialError(`credential refused: the certificate has not exactly one ${policy.nameAttribute}`);
    const store = this.#ctx.store;
    const existing = store.principalByName(name);
    if (existing !== undefined && existing.provisionedBy !== authorityId) {
      throw new KeyServerError('CONFLICT', `cannot provision ${name}: the principal exists`, { reason: 'PRINCIPAL_EXISTS' });
    }
    if (!existing) {
      const roles = policy.defaultRoles.filter((role) => role !== FIXED_ROLE);
      const created = createPrincipal(this.#ctx, { name, kind: 'user', roles });
      store.putPrincipal({ ...store.principalById(created.principalId)!, provisionedBy: authorityId });
      // A new principal joins the policy's default groups that exist (a group made later is not joined).
      for (const groupName of policy.defaultGroups) {
        const group = store.principalByName(groupName);
        if (group?.kind === 'group') store.putMembership(group.principalId, created.principalId);
      }
    }
    const row = store.principalByName(name)!;
    store.putCertificate({ id: certificateId(cert), pem: cert.toString(), role: 'enrolled', principalId: row.principalId, createdAt: this.#ctx.now() });
    return row;
  }
}
