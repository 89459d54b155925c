import type { SessionRecord } from '../../../domain/session/session.js';

/**
 * The session view of api-surface.md: `sessionId` only on mint, `jkt` only for a bound session,
 * the scope fields only where they apply. Never the key-server token.
 */
export function sessionView(session: SessionRecord, sessionId?: string): Record<string, unknown> {
  return {
    ...(sessionId === undefined ? {} : { sessionId }),
    user: session.identity.user,
    systemId: session.identity.systemId,
    principalId: session.identity.principalId,
    kind: session.kind,
    bound: session.jkt !== undefined,
    ...(session.jkt === undefined ? {} : { jkt: session.jkt }),
    ...(session.objects === undefined ? {} : { objects: session.objects }),
    ...(session.rights === undefined ? {} : { rights: session.rights }),
    expiresAt: new Date(session.expiresAt).toISOString(),
    ...(session.actingFor === undefined ? {} : { actingFor: session.actingFor }),
  };
}

/** A list item of GET /api/sessions: a short non-secret reference, never a session id. */
export function sessionListItem(session: SessionRecord): Record<string, unknown> {
  return {
    ref: session.ref,
    kind: session.kind,
    bound: session.jkt !== undefined,
    createdAt: new Date(session.createdAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
  };
}
