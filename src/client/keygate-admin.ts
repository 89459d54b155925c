import type { PrincipalKind, PrincipalView } from '../wire/principal.js';
import type { ListView, TrustedIssuerSettings, TrustedIssuerView } from './api-types.js';
import type { KeygateSession } from './keygate-session.js';

/** A principal as /api answers it: the one view the key server and the gateway share (type only). */
export type { PrincipalView } from '../wire/principal.js';

export interface NewPrincipalRequest {
  readonly name: string;
  readonly kind: PrincipalKind;
  readonly password?: string;
  readonly displayName?: string;
  readonly roles?: readonly string[];
}

export interface RoleView {
  readonly name: string;
  readonly operations: readonly string[];
}

/** One audit record (docs/spec.md §9.1). */
export interface AuditRecordView {
  readonly id: string;
  readonly at: string;
  readonly requestId: string;
  readonly operation: string;
  readonly outcome: 'pending' | 'ok' | 'denied' | 'error';
  readonly status: number;
  readonly principal?: string;
  readonly sessionRef?: string;
  readonly object?: string;
  readonly code?: string;
}

export interface AuditQueryRequest {
  readonly from?: string;
  readonly to?: string;
  readonly principal?: string;
  readonly operation?: string;
  readonly outcome?: AuditRecordView['outcome'];
  /** Exactly this object; a membership change's is `{"group":"ops","member":"team x"}`. */
  readonly object?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

const segment = encodeURIComponent;

function query(params: Readonly<Record<string, string | number | undefined>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The administration operations of /api (principals, groups, roles, audit) over a session: what an
 * operator's tools need beside the key operations of KeygateSession. Each is one request.
 */
export class KeygateAdmin {
  readonly #session: KeygateSession;

  constructor(session: KeygateSession) {
    this.#session = session;
  }

  listPrincipals(page: { limit?: number; cursor?: string } = {}): Promise<ListView<PrincipalView>> {
    return this.#session.request('GET', `/api/principals${query(page)}`);
  }

  readPrincipal(name: string): Promise<PrincipalView> {
    return this.#session.request('GET', `/api/principals/${segment(name)}`);
  }

  createPrincipal(request: NewPrincipalRequest): Promise<PrincipalView> {
    return this.#session.request('POST', '/api/principals', request);
  }

  principalGroups(name: string): Promise<ListView<PrincipalView>> {
    return this.#session.request('GET', `/api/principals/${segment(name)}/groups`);
  }

  /** The groups by name, a page at a time (docs/spec.md §4.9 item 1): `limit` 1..1000, `cursor` a page's `next`. */
  listGroups(page: { limit?: number; cursor?: string } = {}): Promise<ListView<PrincipalView>> {
    return this.#session.request('GET', `/api/groups${query(page)}`);
  }

  groupMembers(group: string): Promise<ListView<PrincipalView>> {
    return this.#session.request('GET', `/api/groups/${segment(group)}/members`);
  }

  addGroupMember(group: string, member: string): Promise<unknown> {
    return this.#session.request('PUT', `/api/groups/${segment(group)}/members/${segment(member)}`);
  }

  removeGroupMember(group: string, member: string): Promise<unknown> {
    return this.#session.request('DELETE', `/api/groups/${segment(group)}/members/${segment(member)}`);
  }

  listRoles(): Promise<ListView<RoleView>> {
    return this.#session.request('GET', '/api/roles');
  }

  readRole(name: string): Promise<RoleView> {
    return this.#session.request('GET', `/api/roles/${segment(name)}`);
  }

  /** The trusted issuers of workload tokens (docs/spec.md §4.24), by name. */
  listIssuers(): Promise<ListView<TrustedIssuerView>> {
    return this.#session.request('GET', '/api/trust/issuers');
  }

  readIssuer(name: string): Promise<TrustedIssuerView> {
    return this.#session.request('GET', `/api/trust/issuers/${segment(name)}`);
  }

  /** Creates or replaces a trusted issuer; answers it as stored (defaults filled in). */
  putIssuer(name: string, settings: TrustedIssuerSettings): Promise<TrustedIssuerView> {
    return this.#session.request('PUT', `/api/trust/issuers/${segment(name)}`, settings);
  }

  deleteIssuer(name: string): Promise<unknown> {
    return this.#session.request('DELETE', `/api/trust/issuers/${segment(name)}`);
  }

  queryAudit(request: AuditQueryRequest = {}): Promise<ListView<AuditRecordView>> {
    return this.#session.request('GET', `/api/audit${query({ ...request })}`);
  }
}
