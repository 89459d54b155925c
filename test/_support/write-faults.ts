import { jwkThumbprint } from '../../src/crypto/jwk-thumbprint.js';
import type { CallArgs, CallResult, KeyServerConnection } from '../../src/ports/key-server.port.js';
import type { Right } from '../../src/wire/acl.js';
import type { OperationName } from '../../src/wire/keyserver-operations.js';

type C = KeyServerConnection;

/**
 * How a fault injector drops a write (acknowledges it and does nothing, answering what a real key
 * server would have answered) or alters it (stores other values than asked).
 */
interface WriteFault<N extends OperationName> {
  drop(inner: C, args: CallArgs<N>): Promise<CallResult<N>>;
  alter?(inner: C, args: CallArgs<N>): Promise<CallResult<N>>;
}

const otherRights = (rights: readonly Right[]): Right[] => (rights.includes('mac') ? ['read'] : ['mac']);
const otherPrincipal = (name: string) => (name === 'bob' ? 'carol' : 'bob');

/** The writes the /api surface verifies by reading back (api-surface.md `W`), and how each is faulted. */
export const WRITE_FAULTS = {
  // A dropped ACL write answers the revision the ACL is at: the one it would have produced never was.
  grant: {
    drop: async (inner, { ttag, principal }) => ({
      grantee: { user: principal, systemId: 0, principalId: '0000000000000000' },
      revision: (await inner.call('readAcl', { ttag })).revision,
    }),
    alter: (inner, args) => inner.call('grant', { ...args, rights: otherRights(args.rights) }),
  } satisfies WriteFault<'grant'>,
  revoke: {
    drop: async (inner, { ttag }) => ({ revision: (await inner.call('readAcl', { ttag })).revision }),
  } satisfies WriteFault<'revoke'>,
  expireKey: {
    drop: async (inner, { ttag }) => ({ ...(await inner.call('readKey', { ttag })), state: 'expired' as const }),
  } satisfies WriteFault<'expireKey'>,
  disableKey: {
    drop: async (inner, { ttag }) => ({ ...(await inner.call('readKey', { ttag })), state: 'disabled' as const }),
  } satisfies WriteFault<'disableKey'>,
  // docs/spec.md §4.25 item 7: a dropped publication answers the view as if it had taken.
  setPublished: {
    drop: async (inner, { ttag, published }) => ({ ...(await inner.call('readKey', { ttag })), published }),
  } satisfies WriteFault<'setPublished'>,
  enableKey: {
    drop: async (inner, { ttag }) => ({ ...(await inner.call('readKey', { ttag })), state: 'active' as const }),
  } satisfies WriteFault<'enableKey'>,
  // docs/spec.md §4.23 item 3: a dropped alias write answers what the key server would have answered.
  putAlias: {
    drop: async (_inner, { alias, ttag }) => ({ alias, ttag, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() }),
  } satisfies WriteFault<'putAlias'>,
  deleteAlias: {
    drop: async (inner, { alias }) => ({ ttag: (await inner.call('readKey', { ttag: `alias/${alias}` })).ttag }),
  } satisfies WriteFault<'deleteAlias'>,
  // A dropped tag write answers what was asked; an altered one stores another value.
  putKeyTag: {
    drop: async (_inner, { name, value }) => ({ name, value }),
    alter: async (inner, args) => {
      await inner.call('putKeyTag', { ...args, value: `${args.value} (altered)` });
      return { name: args.name, value: args.value };
    },
  } satisfies WriteFault<'putKeyTag'>,
  deleteKeyTag: {
    drop: async () => ({}),
  } satisfies WriteFault<'deleteKeyTag'>,
  scheduleKeyDeletion: {
    drop: async (inner, { ttag }) => ({ ...(await inner.call('readKey', { ttag })), state: 'pending-deletion' as const }),
  } satisfies WriteFault<'scheduleKeyDeletion'>,
  cancelKeyDeletion: {
    drop: async (inner, { ttag }) => ({ ...(await inner.call('readKey', { ttag })), state: 'disabled' as const }),
  } satisfies WriteFault<'cancelKeyDeletion'>,
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
    alter: (inner, input) => inner.call('createPrincipal', { ...input, displayName: `${input.displayName ?? input.name} (altered)` }),
  } satisfies WriteFault<'createPrincipal'>,
  updatePrincipal: {
    drop: (inner, { name }) => inner.call('readPrincipal', { name }),
    alter: (inner, { name, changes }) =>
      inner.call('updatePrincipal', {
        name,
        changes: {
          ...(changes.displayName === undefined ? {} : { displayName: `${changes.displayName} (altered)` }),
          ...(changes.disabled === undefined ? {} : { disabled: !changes.disabled }),
          ...(changes.roles === undefined ? {} : { roles: [] }),
        },
      }),
  } satisfies WriteFault<'updatePrincipal'>,
  deletePrincipal: {
    drop: async () => null,
  } satisfies WriteFault<'deletePrincipal'>,
  addGroupMember: {
    drop: async () => null,
  } satisfies WriteFault<'addGroupMember'>,
  removeGroupMember: {
    drop: async () => null,
  } satisfies WriteFault<'removeGroupMember'>,
  putRole: {
    drop: async (_inner, { name, operations }) => ({ name, operations: [...operations] }),
    alter: (inner, { name, operations }) =>
      inner.call('putRole', { name, operations: operations.length > 1 ? operations.slice(1) : ['keys.read'] }),
  } satisfies WriteFault<'putRole'>,
  putSenderKey: {
    drop: async (_inner, { jwk }) => ({ jkt: jwkThumbprint(jwk) }),
  } satisfies WriteFault<'putSenderKey'>,
  addTrustAuthority: {
    drop: (inner, { pem }) => inner.call('parseCertificate', { pem }),
  } satisfies WriteFault<'addTrustAuthority'>,
  removeTrustAuthority: {
    drop: async () => null,
  } satisfies WriteFault<'removeTrustAuthority'>,
  enrollCertificate: {
    drop: async (inner, { principal, pem }) => ({ ...(await inner.call('parseCertificate', { pem })), principal }),
    alter: (inner, { principal, pem }) => inner.call('enrollCertificate', { principal: otherPrincipal(principal), pem }),
  } satisfies WriteFault<'enrollCertificate'>,
  setParameter: {
    drop: async (inner, { name, value }) => ({ ...(await inner.call('listParameters', {})).items.find((p) => p.name === name)!, value }),
    alter: (inner, { name, value }) => inner.call('setParameter', { name, value: (value as number) + 1 }),
  } satisfies WriteFault<'setParameter'>,
  setPolicy: {
    drop: (inner) => inner.call('readPolicy', {}),
    alter: (inner, { name, value }) => inner.call('setPolicy', { name, value: alteredPolicyValue(name, value) }),
  } satisfies WriteFault<'setPolicy'>,
};

function alteredPolicyValue(name: string, value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (name === 'nameAttribute') return value === 'emailAddress' ? 'UID' : 'emailAddress';
  return [];
}

export type WriteOperation = keyof typeof WRITE_FAULTS;

/** The operations that answer a list (`{ items, complete, ... }`). */
export const LIST_OPERATIONS = [
  'listPrincipals',
  'principalGroups',
  'listGroups',
  'listKeys',
  'groupMembers',
  'listRoles',
  'listCertificates',
  'listTrustAuthorities',
  'listParameters',
] as const satisfies readonly OperationName[];

export type ListOperation = (typeof LIST_OPERATIONS)[number];
