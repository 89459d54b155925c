import { type SrpVerifier, srpCreateVerifier } from '../../crypto/srp/srp-verifier.js';
import type { Identity } from '../../wire/identity.js';
import { PRINCIPAL_NAME } from '../../wire/principal.js';
import { BadRequestError, KeyServerError } from '../model/key-server-errors.js';
import type { EngineContext } from './engine-context.js';
import type { PrincipalKind, PrincipalRow } from './engine-model.js';
import { identityOf } from './engine-views.js';

export interface NewPrincipal {
  readonly name: string;
  readonly kind: PrincipalKind;
  readonly password?: string | undefined;
  /** A verifier made elsewhere (the gateway makes it, so the password never reaches the key server). */
  readonly srp?: SrpVerifier | undefined;
  readonly roles?: readonly string[] | undefined;
  readonly displayName?: string | undefined;
}

/** Creates a principal (seeding and administration). A password makes an SRP verifier; it is not kept. */
export async function createPrincipal(ctx: Pick<EngineContext, 'store' | 'now' | 'random'>, input: NewPrincipal): Promise<Identity> {
  if (!PRINCIPAL_NAME.test(input.name)) throw new BadRequestError(`name: invalid principal name ${input.name}`);
  if (await ctx.store.principalByName(input.name)) throw new KeyServerError('CONFLICT', `principal exists: ${input.name}`);
  if ((input.password !== undefined || input.srp !== undefined) && input.kind === 'group')
    throw new BadRequestError('password: a group has no password');
  const row: PrincipalRow = {
    name: input.name,
    kind: input.kind,
    systemId: await ctx.store.nextSystemId(),
    principalId: Buffer.from(ctx.random.bytes(8)).toString('hex'),
    disabled: false,
    roles: [...(input.roles ?? defaultRoles(input.kind))],
    createdAt: ctx.now(),
    ...(input.displayName === undefined ? {} : { displayName: input.displayName }),
    ...(input.srp !== undefined ? { srp: input.srp } : {}),
    ...(input.password !== undefined && input.srp === undefined ? { srp: srpCreateVerifier(input.name, input.password, ctx.random) } : {}),
  };
  await ctx.store.putPrincipal(row);
  return identityOf(row);
}

function defaultRoles(kind: PrincipalKind): string[] {
  if (kind === 'service') return ['service'];
  if (kind === 'group') return [];
  return ['user'];
}
