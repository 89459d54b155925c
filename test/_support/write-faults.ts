import { jwkThumbprint } from '../../src/crypto/jwk-thumbprint.js';
import type { KeyServerConnection } from '../../src/ports/key-server.port.js';
import type { Right } from '../../src/wire/acl.js';

type C = KeyServerConnection;

/**
 * How a fault injector drops a write (acknowledges it and does nothing, answering what a real key
 * server would have answered) or alters it (stores other values than asked).
 */
interface WriteFault<K extends keyof C> {
  drop(inner: C, ...args: Parameters<C[K]>): ReturnType<C[K]>;
  alter?(inner: C, ...args: Parameters<C[K]>): ReturnType<C[K]>;
}

const otherRights = (rights: readonly Right[]): Right[] => (rights.includes('mac') ? ['read'] : ['mac']);
const otherPrincipal = (name: string) => (name === 'bob' ? 'carol' : 'bob');

/** The writes the /api surface verifies by reading back (api-surface.md `W`), and how each is faulted. */
export const WRITE_FAULTS = {
  // A dropped ACL write answers the revision the ACL is at: the one it would have produced never was.
  grant: {
    drop: async (inner, ttag, principal) => ({
      grantee: { user: principal, systemId: 0, principalId: '0000000000000000' },
      revision: (await inner.readAcl(ttag)).revision,
    }),
    alter: (inner, ttag, principal, rights) => inner.grant(ttag, principal, otherRights(rights)),
  } satisfies WriteFault<'grant'>,
  revoke: {
    drop: async (inner, ttag) => ({ revision: (await inner.readAcl(ttag)).revision }),
  } satisfies WriteFault<'revoke'>,
  expireKey: {
    drop: async (inner, ttag) => ({ ...(await inner.readKey(ttag)), state: 'expired' as const }),
  } satisfies WriteFault<'expireKey'>,
  createPrincipal: {
    drop: async (_inner, input) => ({
      name: input.name,
      kind: input.kind,
      systemId: 0,
      principalId: '0000000000000000',
      disabled: false,
      roles: [...(input.roles ?? [])],
      createdAt: new Date().toISOString(),
    }),
    alter: (inner, input) => inner.createPrincipal({ ...input, displayName: `${input.displayName ?? input.name} (altered)` }),
  } satisfies WriteFault<'createPrincipal'>,
  updatePrincipal: {
    drop: (inner, name) => inner.readPrincipal(name),
    alter: (inner, name, changes) =>
      inner.updatePrincipal(name, {
        ...(changes.displayName === undefined ? {} : { displayName: `${changes.displayName} (altered)` }),
        ...(changes.disabled === undefined ? {} : { disabled: !changes.disabled }),
        ...(changes.roles === undefined ? {} : { roles: [] }),
      }),
  } satisfies WriteFault<'updatePrincipal'>,
  deletePrincipal: {
    drop: async () => undefined,
  } satisfies WriteFault<'deletePrincipal'>,
  addGroupMember: {
    drop: async () => undefined,
  } satisfies WriteFault<'addGroupMember'>,
  removeGroupMember: {
    drop: async () => undefined,
  } satisfies WriteFault<'removeGroupMember'>,
  putRole: {
    drop: async (_inner, name, operations) => ({ name, operations: [...operations] }),
    alter: (inner, name, operations) => inner.putRole(name, operations.length > 1 ? operations.slice(1) : ['keys.read']),
  } satisfies WriteFault<'putRole'>,
  putSenderKey: {
    drop: async (_inner, _name, jwk) => ({ jkt: jwkThumbprint(jwk as Record<string, unknown>) }),
  } satisfies WriteFault<'putSenderKey'>,
  addTrustAuthority: {
    drop: (inner, pem) => inner.parseCertificate(pem),
  } satisfies WriteFault<'addTrustAuthority'>,
  removeTrustAuthority: {
    drop: async () => undefined,
  } satisfies WriteFault<'removeTrustAuthority'>,
  enrollCertificate: {
    drop: async (inner, principal, pem) => ({ ...(await inner.parseCertificate(pem)), principal }),
    alter: (inner, principal, pem) => inner.enrollCertificate(otherPrincipal(principal), pem),
  } satisfies WriteFault<'enrollCertificate'>,
  setParameter: {
    drop: async (inner, name, value) => ({ ...(await inner.listParameters()).items.find((p) => p.name === name)!, value: value as number }),
    alter: (inner, name, value) => inner.setParameter(name, (value as number) + 1),
  } satisfies WriteFault<'setParameter'>,
  setPolicy: {
    drop: (inner) => inner.readPolicy(),
    alter: (inner, name, value) => inner.setPolicy(name, alteredPolicyValue(name, value)),
  } satisfies WriteFault<'setPolicy'>,
};

function alteredPolicyValue(name: string, value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (name === 'nameAttribute') return value === 'emailAddress' ? 'UID' : 'emailAddress';
  return [];
}

export type WriteOperation = keyof typeof WRITE_FAULTS;

/** The connection methods that answer a list (`{ items, complete, ... }`). */
export const LIST_OPERATIONS = [
  'listPrincipals',
  'principalGroups',
  'groupMembers',
  'listRoles',
  'listCertificates',
  'listTrustAuthorities',
  'listParameters',
] as const satisfies readonly (keyof C)[];

export type ListOperation = (typeof LIST_OPERATIONS)[number];
