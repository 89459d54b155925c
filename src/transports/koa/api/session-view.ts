import type { SessionRecord } from '../../../domain/session/session.js';

/**
 * The session view (docs/spec.md §4.4): `sessionId` only on mint, `jkt` only for a bound session,
 * the scope fields only where they apply. Never the key-server token. Built field by field in the
 * documented order, no conditional spreads: it answers every session read.
 */
export function sessionView(session: SessionRecord, sessionId?: string): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  if (sessionId !== undefined) view.sessionId = sessionId;
  view.user = session.identity.user;
  view.systemId = session.identity.systemId;
  view.principalId = session.identity.principalId;
  view.kind = session.kind;
  view.bound = session.jkt !== undefined;
  if (session.jkt !== undefined) view.jkt = session.jkt;
  if (session.objects !== undefined) view.objects = session.objects;
  if (session.rights !== undefined) view.rights = session.rights;
  view.expiresAt = new Date(session.expiresAt).toISOString();
  if (session.actingFor !== undefined) view.actingFor = session.actingFor;
  return view;
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
