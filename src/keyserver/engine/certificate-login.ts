import { X509Certificate } from 'node:crypto';
import { KeyServerError, WrongCredentialError } from '../model/key-server-errors.js';
import { verifyChallengeSignature } from '../model/verify-challenge-signature.js';
import { buildPath, parseBundle } from './certificate-path.js';
import { type ProvisioningPlan, planProvisioning, readPolicy } from './certificate-provisioning.js';
import { certificateId, isValidAt } from './certificates.js';
import type { EngineContext } from './engine-context.js';
import type { PrincipalRow } from './engine-model.js';

export { readPolicy } from './certificate-provisioning.js';

const CHALLENGE_MS = 60_000;
const MAX_PENDING_CHALLENGES = 10_000;

/**
 * A challenge in flight: the certificate's id and the authority its path ended at. The leaf itself and
 * the authority that issued it are kept only for a trusted certificate that auto-provisioning may turn
 * into a principal.
 */
interface PendingChallenge {
  readonly certId: string;
  readonly anchorId: string;
  readonly provisionable?: { readonly leaf: X509Certificate; readonly issuer: X509Certificate };
  readonly challenge: Buffer;
  readonly expiresAt: number;
}

/**
 * Certificate login (docs/spec.md §4.19) and the certificate side of delegation. Path
 * validation is asynchronous (WebCrypto); what reads or writes the store after it reads the trust
 * again, within the operation's one unit of the store, so a decision and its writes are never split
 * by another call.
 */
export class CertificateLogin {
  readonly #ctx: EngineContext;
  readonly #challenges = new Map<string, PendingChallenge>();

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * First leg: 32 random bytes, single use, valid 60 s. A certificate that does not chain to a trusted
   * authority, or (provisioning off) is not enrolled, is refused before anything is kept (docs/spec.md §4.19 item 6).
   */
  async challenge(pem: string): Promise<{ challengeId: string; challenge: string; expiresAt: number }> {
    const { leaf, intermediates } = parseBundle(pem);
    const { anchorId, issuer } = await this.#trustedPath(leaf, intermediates);
    const certId = certificateId(leaf);
    const enrolled = (await this.#enrolledPrincipal(certId)) !== undefined;
    if (!enrolled && !(await readPolicy(this.#ctx)).autoProvision)
      throw new WrongCredentialError('credential refused: the certificate is not enrolled');
    const now = this.#ctx.now();
    for (const [id, pending] of this.#challenges) if (pending.expiresAt <= now) this.#challenges.delete(id);
    if (this.#challenges.size >= MAX_PENDING_CHALLENGES)
      throw new KeyServerError('KEY_SERVER_FAILED', 'too many certificate logins in progress');
    const challengeId = Buffer.from(this.#ctx.random.bytes(16)).toString('base64url');
    const challenge = Buffer.from(this.#ctx.random.bytes(32));
    const expiresAt = now + CHALLENGE_MS;
    this.#challenges.set(challengeId, { certId, anchorId, challenge, expiresAt, ...(enrolled ? {} : { provisionable: { leaf, issuer } }) });
    return { challengeId, challenge: challenge.toString('base64url'), expiresAt };
  }

  /**
   * Second leg: the signature over the challenge proves possession of the certificate's key; the
   * path was validated at the first leg, its authority must still be trusted and the leaf still valid.
   */
  async login(challengeId: string, signature: Buffer): Promise<PrincipalRow> {
    const pending = this.#challenges.get(challengeId);
    this.#challenges.delete(challengeId);
    const now = this.#ctx.now();
    if (!pending || pending.expiresAt <= now) throw new WrongCredentialError('empty data: unknown or expired challenge');
    const stored = await this.#ctx.store.certificate(pending.certId);
    const cert = stored?.role === 'enrolled' ? new X509Certificate(stored.pem) : pending.provisionable?.leaf;
    if (!cert) throw new WrongCredentialError('credential refused: the certificate is not enrolled');
    if (!verifyChallengeSignature(cert.publicKey, pending.challenge, signature))
      throw new WrongCredentialError('credential refused: the signature does not verify');
    if ((await this.#ctx.store.certificate(pending.anchorId))?.role !== 'authority' || !isValidAt(cert, now)) {
      throw new WrongCredentialError('credential refused: the certificate is no longer trusted');
    }
    return (await this.#claim(cert, pending.provisionable?.issuer)).commit();
  }

  /**
   * The principal a certificate bundle names (delegated `{ certificate }`), decided but not written:
   * the caller checks the delegation over `target` first, and commits only when it is allowed.
   */
  async delegationTarget(pem: string): Promise<() => Promise<ProvisioningPlan>> {
    const { leaf, intermediates } = parseBundle(pem);
    const { issuer } = await this.#trustedPath(leaf, intermediates);
    return () => this.#claim(leaf, issuer);
  }

  /** Drops every challenge in flight (the engine closes). */
  clear(): void {
    this.#challenges.clear();
  }

  async #trustedPath(
    leaf: X509Certificate,
    intermediates: readonly X509Certificate[],
  ): Promise<{ anchorId: string; issuer: X509Certificate }> {
    const anchors = (await this.#ctx.store.certificates('authority')).map((row) => new X509Certificate(row.pem));
    const path = await buildPath(leaf, intermediates, anchors, this.#ctx.now());
    if (!path.trusted) throw new WrongCredentialError(`credential refused: ${path.reason}`);
    // The authority may have been removed while the path was checked.
    if ((await this.#ctx.store.certificate(path.anchorId))?.role !== 'authority')
      throw new WrongCredentialError('credential refused: the certificate is no longer trusted');
    return { anchorId: path.anchorId, issuer: path.issuer };
  }

  async #enrolledPrincipal(certId: string): Promise<PrincipalRow | undefined> {
    const row = await this.#ctx.store.certificate(certId);
    return row?.role === 'enrolled' ? await this.#ctx.store.principalById(row.principalId ?? '') : undefined;
  }

  /**
   * The enrolled principal of `cert`, or what auto-provisioning would make of it through `issuer` (the
   * authority that issued it; unknown: not provisionable); a disabled one is refused.
   */
  async #claim(cert: X509Certificate, issuer: X509Certificate | undefined): Promise<ProvisioningPlan> {
    const enrolled = await this.#enrolledPrincipal(certificateId(cert));
    if (enrolled === undefined && issuer === undefined)
      throw new WrongCredentialError('credential refused: the certificate is not enrolled');
    const plan: ProvisioningPlan =
      enrolled === undefined
        ? await planProvisioning(this.#ctx, cert, issuer!)
        : { target: enrolled, groupIds: await this.#ctx.store.groupIdsOf(enrolled.principalId), commit: async () => enrolled };
    if (plan.target.disabled) throw new WrongCredentialError('credential refused: principal is disabled');
    return plan;
  }
}
