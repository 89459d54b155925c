import { X509Certificate } from 'node:crypto';
import { PRINCIPAL_NAME } from '../../wire/principal.js';
import { BadRequestError, KeyServerError, WrongCredentialError } from '../model/key-server-errors.js';
import { subjectField } from './certificate-path.js';
import { certificateId } from './certificates.js';
import type { EngineContext } from './engine-context.js';
import { DEFAULT_POLICY, type PrincipalRow, type ProvisioningPolicy } from './engine-model.js';
import { FIXED_ROLE } from './engine-roles.js';
import { createPrincipal } from './principal-factory.js';

type Context = Pick<EngineContext, 'store' | 'now' | 'random'>;

export async function readPolicy(ctx: Pick<EngineContext, 'store'>): Promise<ProvisioningPolicy> {
  const stored = await ctx.store.setting('policy');
  return stored === undefined ? DEFAULT_POLICY : (JSON.parse(stored) as ProvisioningPolicy);
}

/**
 * What auto-provisioning would do for a trusted but not enrolled certificate, decided before anything
 * is written: the principal it names (existing, or as it would be created) and the groups it would be
 * in. A caller decides its own checks over `target` (a delegation, docs/spec.md §4.18) and only then commits.
 */
export interface ProvisioningPlan {
  readonly target: PrincipalRow;
  readonly groupIds: readonly string[];
  /** Creates the principal when it is new, enrolls the certificate, and answers the stored principal. */
  commit(): Promise<PrincipalRow>;
}

/**
 * Auto-provisioning only ever creates a principal: a name taken by anyone but a provisioned principal
 * linked to the certificate's issuing authority is CONFLICT `PRINCIPAL_EXISTS`. The issuing authority
 * is the CA that issued the leaf (`issuer`, the first certificate above it on the path), not the
 * anchor: two sub-CAs under one root are two authorities. A principal is linked to every authority
 * that issued a certificate enrolled to it, by provisioning or by an administrator's enrollment
 * (`linkedTo`). Policy off: the certificate is simply not enrolled.
 */
export async function planProvisioning(ctx: Context, cert: X509Certificate, issuer: X509Certificate): Promise<ProvisioningPlan> {
  const policy = await readPolicy(ctx);
  if (!policy.autoProvision) throw new WrongCredentialError('credential refused: the certificate is not enrolled');
  const name = subjectField(cert, policy.nameAttribute);
  if (name === undefined) throw new WrongCredentialError(`credential refused: the certificate has not exactly one ${policy.nameAttribute}`);
  if (!PRINCIPAL_NAME.test(name)) throw new BadRequestError(`name: invalid principal name ${name}`);
  const store = ctx.store;
  const existing = await store.principalByName(name);
  if (existing !== undefined && (existing.provisionedBy === undefined || !(await linkedTo(ctx, existing, issuer)))) {
    throw new KeyServerError('CONFLICT', `cannot provision ${name}: the principal exists`, { reason: 'PRINCIPAL_EXISTS' });
  }
  const enroll = async (row: PrincipalRow): Promise<PrincipalRow> => {
    await store.putCertificate({
      id: certificateId(cert),
      pem: cert.toString(),
      role: 'enrolled',
      principalId: row.principalId,
      createdAt: ctx.now(),
    });
    return row;
  };
  if (existing !== undefined)
    return { target: existing, groupIds: await store.groupIdsOf(existing.principalId), commit: () => enroll(existing) };
  const roles = policy.defaultRoles.filter((role) => role !== FIXED_ROLE);
  // A new principal joins the policy's default groups that exist (a group made later is not joined),
  // except one that gained admin after the policy was written: provisioning never hands out admin.
  const groupIds: string[] = [];
  for (const groupName of policy.defaultGroups) {
    const group = await store.principalByName(groupName);
    if (group?.kind === 'group' && !group.roles.includes(FIXED_ROLE)) groupIds.push(group.principalId);
  }
  const authorityId = certificateId(issuer);
  const target: PrincipalRow = {
    name,
    kind: 'user',
    systemId: 0,
    principalId: '',
    disabled: false,
    roles,
    provisionedBy: authorityId,
    createdAt: ctx.now(),
  };
  const commit = async () => {
    const created = await createPrincipal(ctx, { name, kind: 'user', roles });
    const row = { ...(await store.principalById(created.principalId))!, provisionedBy: authorityId };
    await store.putPrincipal(row);
    for (const groupId of groupIds) await store.putMembership(groupId, row.principalId);
    return enroll(row);
  };
  return { target, groupIds, commit };
}

/**
 * Is `principal` linked to the authority `issuer` (its subject and key): did it issue one of the
 * certificates enrolled to the principal? Read from the enrolled certificates themselves, so a
 * principal provisioned before this rule is linked to exactly the authorities whose certificates it
 * holds, and an authority is linked only by enrolling one of its certificates.
 */
async function linkedTo(ctx: Context, principal: PrincipalRow, issuer: X509Certificate): Promise<boolean> {
  return (await ctx.store.certificates('enrolled'))
    .filter((row) => row.principalId === principal.principalId)
    .some((row) => issuedBy(row.pem, issuer));
}

/** The leaf names `issuer` as its issuer and its signature verifies under the issuer's key (RFC 5280 §6.1.3(a)). */
function issuedBy(pem: string, issuer: X509Certificate): boolean {
  try {
    const leaf = new X509Certificate(pem);
    return leaf.checkIssued(issuer) && leaf.verify(issuer.publicKey);
  } catch {
    return false;
  }
}
