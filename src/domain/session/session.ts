import type { Right } from '../../wire/acl.js';
import type { Identity } from '../../wire/identity.js';
import type { Secret } from '../secret/secret.js';

/** How a session was obtained (docs/spec.md §4.4, session view `kind`). */
export type SessionKind = 'password' | 'certificate' | 'jwt' | 'scoped' | 'delegated';

/**
 * What the gateway keeps for a session. The key-server token lives only here, on the gateway; the
 * client holds the session id, and the store is keyed by a hash of that id (see `sessionKey`).
 */
export interface SessionRecord {
  /** Short non-secret reference (a prefix of the store key), safe for logs, audit and lists. */
  readonly ref: string;
  readonly identity: Identity;
  readonly token: Secret;
  readonly kind: SessionKind;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Milliseconds since the epoch; the store forgets the session then. */
  readonly expiresAt: number;
  /** RFC 7638 thumbprint of the key a bound session's proofs must be signed with. */
  readonly jkt?: string;
  /** A scoped session's object list (ttags, standard base64). */
  readonly objects?: readonly string[];
  readonly rights?: readonly Right[];
  /** A delegated session: the service principal that minted it. */
  readonly actingFor?: string;
}

/** A session is bound (sender-constrained) when it carries a key thumbprint. */
export function isBound(session: SessionRecord): boolean {
  return session.jkt !== undefined;
}
