import type { Right } from '../../src/domain/acl/acl.js';
import type { KeyServerConnection } from '../../src/ports/key-server.port.js';

type C = KeyServerConnection;

/** How a fault injector drops a write (acknowledges it, does nothing) or alters it (stores other values). */
interface WriteFault<K extends keyof C> {
  drop(inner: C, ...args: Parameters<C[K]>): ReturnType<C[K]>;
  alter?(inner: C, ...args: Parameters<C[K]>): ReturnType<C[K]>;
}

const otherRights = (rights: readonly Right[]): Right[] => (rights.includes('mac') ? ['read'] : ['mac']);

/** The writes the /api surface verifies by reading back (api-surface.md `W`), and how each is faulted. */
export const WRITE_FAULTS = {
  grant: {
    drop: async (_inner, _ttag, principal) => ({ user: principal, systemId: 0, principalId: '0000000000000000' }),
    alter: (inner, ttag, principal, rights) => inner.grant(ttag, principal, otherRights(rights)),
  } satisfies WriteFault<'grant'>,
  revoke: {
    drop: async () => undefined,
  } satisfies WriteFault<'revoke'>,
  expireKey: {
    drop: (inner, ttag) => inner.readKey(ttag),
  } satisfies WriteFault<'expireKey'>,
};

export type WriteOperation = keyof typeof WRITE_FAULTS;

/** The connection methods that answer a list (`{ items, complete, ... }`). */
export const LIST_OPERATIONS: readonly string[] = [];
export type ListOperation = string;
