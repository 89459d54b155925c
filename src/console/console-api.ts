import {
  type AclEntry,
  type AclView,
  type AuditQueryRequest,
  type AuditRecordView,
  decryptStream,
  type EncryptionContext,
  encryptStream,
  KeygateAdmin,
  KeygateClient,
  type KeygateSession,
  type KeyView,
  type ListView,
  type NewKeyRequest,
  type NewPrincipalRequest,
  type PrincipalView,
  type PublicKeyView,
  type Right,
  type RoleView,
  type Sealed,
  type SessionListItem,
  type SessionView,
  type SigningAlg,
  type TrustedIssuerSettings,
  type TrustedIssuerView,
  toBase64,
  type VerifyView,
} from '../client/index.js';
import { notingFetch } from './console-reads.js';

/** A trusted authority or enrolled certificate as /api answers it. */
export interface CertificateView {
  readonly id: string;
  readonly subject: string;
  readonly issuer: string;
  readonly serial: string;
  readonly notBefore: string;
  readonly notAfter: string;
  readonly keyAlg: string;
  readonly principal?: string;
}

export interface ProvisioningPolicy {
  readonly autoProvision: boolean;
  readonly nameAttribute: 'CN' | 'UID' | 'emailAddress';
  readonly defaultRoles: readonly string[];
  readonly defaultGroups: readonly string[];
}

/** One break the verifier found (docs/spec.md §9.5). */
export interface AuditBreakView {
  readonly writer: string;
  readonly seq: number;
  readonly id?: string;
  readonly kind: string;
  readonly detail: string;
}

/** GET /api/audit/verify: per writer its entries, last checkpoint and breaks; every break; the first. */
export interface AuditVerification {
  readonly ok: boolean;
  readonly checked: number;
  readonly writers: readonly {
    writer: string;
    entries: number;
    lastSeq: number;
    lastCheckpoint: number | null;
    breaks: number;
    unlisted: number;
  }[];
  readonly breaks: readonly AuditBreakView[];
  readonly firstBreak?: AuditBreakView;
}

/** GET /api/health, answered with 200 or 503 alike (a failed check is still a report). */
export interface HealthReport {
  readonly ok: boolean;
  readonly ksFingerprint: string;
  readonly sessions: number;
  readonly version?: string;
  readonly checks?: Readonly<Record<string, string>>;
  readonly reasons?: Readonly<Record<string, string>>;
  /** Each key-server daemon the gateway reaches, in its configured order; absent with the embedded key server. */
  readonly keyServers?: readonly KeyServerDaemonView[];
}

/** One daemon of GET /api/health's `keyServers`: its URL, its fingerprint once it showed one, whether it serves. */
export interface KeyServerDaemonView {
  readonly url: string;
  readonly fingerprint?: string;
  readonly ok: boolean;
}

export type {
  AclEntry,
  AclView,
  AuditQueryRequest,
  AuditRecordView,
  KeyView,
  ListView,
  PrincipalView,
  Right,
  RoleView,
  SessionListItem,
  SessionView,
};

const segment = encodeURIComponent;

/** A key's states (docs/spec.md §4.6, §4.23 item 4). */
export type KeyState = 'active' | 'disabled' | 'expired' | 'pending-deletion' | 'deleted';

/** The key view with what docs/spec.md §4.23 item 7 adds to it: tags, the deletion times and last use. */
export type ManagedKey = Omit<KeyView, 'state' | 'tags'> & {
  readonly state: KeyState;
  readonly tags?: Readonly<Record<string, string>>;
  readonly deletionAt?: string;
  readonly deletedAt?: string;
  readonly lastUsedAt?: string;
  readonly lastUsedOperation?: string;
};

/** One item of GET /api/keys: the key view without its versions (docs/spec.md §4.23 item 1). */
export type KeySummary = Omit<ManagedKey, 'versions' | 'versionsOmitted'>;

/** The filters of GET /api/keys, all of which must match; `tags` each `name:value` or `name`. */
export interface KeyQuery {
  readonly q?: string;
  readonly tags?: readonly string[];
  readonly state?: KeyState;
  readonly owner?: string;
  readonly createdAfter?: string;
  readonly createdBefore?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/** One alias: a deployment-wide name for one key (docs/spec.md §4.23 item 3). */
export interface AliasView {
  readonly alias: string;
  readonly ttag: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** `{ttag}` in a path: a ttag or `alias/<name>`, percent-encoded (`alias%2F<name>`, docs/spec.md §4.23 item 3). */
function keyPath(ttag: string): string {
  return `/api/keys/${segment(ttag)}`;
}

/** The query of GET /api/keys: each filter given, `tag` once per tag. */
export function keyQueryString(query: KeyQuery): string {
  const params = new URLSearchParams();
  for (const name of ['q', 'state', 'owner', 'createdAfter', 'createdBefore', 'cursor'] as const) {
    const value = query[name];
    if (value !== undefined && value !== '') params.set(name, value);
  }
  for (const tag of query.tags ?? []) params.append('tag', tag);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Where any gateway serves a published key's JWKS without a session (docs/spec.md §4.25 item 7). */
export function publishedJwksUrl(ttag: string): string {
  return new URL(`jwks/keys/${segment(ttag)}.json`, gatewayBase()).href;
}

/** The gateway this page came from: the console is served at `<gateway>/console/`. */
export function gatewayBase(): string {
  return new URL('..', window.location.href).href;
}

/**
 * Every /api call the console makes, over one password session of the signed-in operator. It holds
 * the session (and so its id) and nothing else; each method is one request.
 */
export class ConsoleApi {
  readonly session: KeygateSession;
  readonly #admin: KeygateAdmin;

  constructor(session: KeygateSession) {
    this.session = session;
    this.#admin = new KeygateAdmin(session);
  }

  static login(user: string, password: string): Promise<KeygateSession> {
    return new KeygateClient({ baseUrl: gatewayBase(), fetch: notingFetch }).login(user, password);
  }

  static resume(sessionId: string): ConsoleApi {
    return new ConsoleApi(new KeygateClient({ baseUrl: gatewayBase(), fetch: notingFetch }).resume(sessionId));
  }

  whoAmI = (): Promise<SessionView> => this.session.inspect();
  signOut = (): Promise<void> => this.session.logout();
  sessions = (): Promise<ListView<SessionListItem>> => this.session.listSessions();

  createKey = (request: NewKeyRequest): Promise<ManagedKey> => this.session.createKey(request) as Promise<ManagedKey>;
  /** GET /api/keys/{ttag}: by ttag or by `alias/<name>`. */
  readKey = (ttag: string): Promise<ManagedKey> => this.session.request('GET', keyPath(ttag));
  expireKey = (ttag: string): Promise<ManagedKey> => this.session.request('POST', `${keyPath(ttag)}/expire`);
  disableKey = (ttag: string): Promise<ManagedKey> => this.session.request('POST', `${keyPath(ttag)}/disable`);
  enableKey = (ttag: string): Promise<ManagedKey> => this.session.request('POST', `${keyPath(ttag)}/enable`);
  rotateKey = (ttag: string): Promise<ManagedKey> => this.session.request('POST', `${keyPath(ttag)}/rotate`);
  setMinVersion = (ttag: string, minVersion: number): Promise<ManagedKey> =>
    this.session.request('PUT', `${keyPath(ttag)}/min-version`, { minVersion });
  scheduleDeletion = (ttag: string, pendingDays: number | undefined): Promise<ManagedKey> =>
    this.session.request('POST', `${keyPath(ttag)}/schedule-deletion`, pendingDays === undefined ? {} : { pendingDays });
  cancelDeletion = (ttag: string): Promise<ManagedKey> => this.session.request('POST', `${keyPath(ttag)}/cancel-deletion`);

  listKeys = (query: KeyQuery): Promise<ListView<KeySummary>> => this.session.request('GET', `/api/keys${keyQueryString(query)}`);
  setTag = (ttag: string, name: string, value: string): Promise<{ name: string; value: string }> =>
    this.session.request('PUT', `${keyPath(ttag)}/tags/${segment(name)}`, { value });
  deleteTag = (ttag: string, name: string): Promise<unknown> => this.session.request('DELETE', `${keyPath(ttag)}/tags/${segment(name)}`);
  aliasesOf = (ttag: string): Promise<ListView<AliasView>> =>
    this.session.request('GET', `/api/aliases?${new URLSearchParams({ ttag, limit: '1000' }).toString()}`);
  setAlias = (alias: string, ttag: string): Promise<AliasView> => this.session.request('PUT', `/api/aliases/${segment(alias)}`, { ttag });
  deleteAlias = (alias: string): Promise<unknown> => this.session.request('DELETE', `/api/aliases/${segment(alias)}`);
  /** POST /api/crypto/encrypt of the text's UTF-8 bytes, bound to `context` (docs/spec.md §4.5b) when one is given. */
  encrypt = (ttag: string, text: string, context?: EncryptionContext): Promise<Sealed> =>
    this.session.encrypt(ttag, text, undefined, context);
  decrypt = (ttag: string, sealed: string, context?: EncryptionContext): Promise<Uint8Array> =>
    this.session.decrypt(ttag, sealed, undefined, context);
  /** A stream of docs/spec.md §4.5a (Streams) under a fresh data key of `ttag`, made with `context`; the data key stays inside the client. */
  encryptStream = (ttag: string, context: EncryptionContext | undefined): TransformStream<Uint8Array, Uint8Array> =>
    encryptStream(this.session, ttag, context === undefined ? {} : { context });
  /** Reads a stream that must be under `ttag` with exactly `context` (none when undefined): else STREAM_KEY_MISMATCH or STREAM_CONTEXT_MISMATCH before any request. */
  decryptStream = (ttag: string, context: EncryptionContext | undefined): TransformStream<Uint8Array, Uint8Array> =>
    decryptStream(this.session, { ttag, context: context ?? {} });
  publicKey = (ttag: string, version: number): Promise<PublicKeyView> => this.session.publicKey(ttag, version);
  setPublished = (ttag: string, published: boolean): Promise<ManagedKey> =>
    this.session.setPublished(ttag, published) as Promise<ManagedKey>;
  /** POST /api/crypto/sign of the text's UTF-8 bytes: the signature in standard base64. */
  sign = async (ttag: string, alg: SigningAlg, text: string): Promise<string> =>
    toBase64((await this.session.sign(ttag, { alg, message: text })).signature);
  verify = (ttag: string, alg: SigningAlg, text: string, signature: string): Promise<VerifyView> =>
    this.session.verify(ttag, { alg, message: text, signature });
  readAcl = (ttag: string): Promise<AclView> => this.session.readAcl(ttag);
  grant = (ttag: string, principal: string, rights: readonly Right[]): Promise<AclEntry> =>
    this.session.setAclEntry(ttag, principal, rights);
  revoke = (ttag: string, principal: string): Promise<void> => this.session.removeAclEntry(ttag, principal);
  myAccess = (ttag: string): Promise<readonly Right[]> => this.session.access(ttag);

  principals = (page: { limit?: number; cursor?: string }): Promise<ListView<PrincipalView>> => this.#admin.listPrincipals(page);
  createPrincipal = (request: NewPrincipalRequest): Promise<PrincipalView> => this.#admin.createPrincipal(request);
  setDisabled = (name: string, disabled: boolean): Promise<PrincipalView> =>
    this.session.request('PUT', `/api/principals/${segment(name)}`, { disabled });
  groupsOf = (name: string): Promise<ListView<PrincipalView>> => this.#admin.principalGroups(name);
  groups = (page: { limit?: number; cursor?: string }): Promise<ListView<PrincipalView>> => this.#admin.listGroups(page);
  members = (group: string): Promise<ListView<PrincipalView>> => this.#admin.groupMembers(group);
  addMember = (group: string, member: string): Promise<unknown> => this.#admin.addGroupMember(group, member);
  removeMember = (group: string, member: string): Promise<unknown> => this.#admin.removeGroupMember(group, member);
  roles = (): Promise<ListView<RoleView>> => this.#admin.listRoles();

  authorities = (): Promise<ListView<CertificateView>> => this.session.request('GET', '/api/trust/authorities');
  trustAuthority = (pem: string): Promise<CertificateView> => this.session.request('POST', '/api/trust/authorities', { pem });
  untrustAuthority = (id: string): Promise<unknown> => this.session.request('DELETE', `/api/trust/authorities/${segment(id)}`);
  issuers = (): Promise<ListView<TrustedIssuerView>> => this.#admin.listIssuers();
  putIssuer = (name: string, settings: TrustedIssuerSettings): Promise<TrustedIssuerView> => this.#admin.putIssuer(name, settings);
  deleteIssuer = (name: string): Promise<unknown> => this.#admin.deleteIssuer(name);
  policy = (): Promise<ProvisioningPolicy> => this.session.request('GET', '/api/policy/provisioning');
  setPolicy = (parameter: keyof ProvisioningPolicy, value: unknown): Promise<ProvisioningPolicy> =>
    this.session.request('PUT', `/api/policy/provisioning/${segment(parameter)}`, { value });

  audit = (request: AuditQueryRequest): Promise<ListView<AuditRecordView>> => this.#admin.queryAudit(request);
  verifyAudit = (): Promise<AuditVerification> => this.session.request('GET', '/api/audit/verify');
}

/** GET /api/health: the report whether the gateway answers 200 or 503 (no session needed). */
export async function readHealth(): Promise<HealthReport> {
  const response = await fetch(new URL('api/health', gatewayBase()), { credentials: 'omit', headers: { Accept: 'application/json' } });
  const body = (await response.json()) as HealthReport;
  if (typeof body.ok !== 'boolean') throw new TypeError(`GET /api/health answered ${response.status} without a health report`);
  return body;
}
