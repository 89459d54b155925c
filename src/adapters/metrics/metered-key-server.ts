import type { HeldOperations } from '../../domain/roles/held-operations.js';
import type { Secret } from '../../domain/secret/secret.js';
import type {
  AclGrant,
  AclWrite,
  DelegatedToken,
  ExportBlob,
  KeyAcl,
  KeyServer,
  KeyServerCertificateLogin,
  KeyServerConnection,
  KeyServerDaemon,
  KeyServerLogin,
  ScopedToken,
} from '../../ports/key-server.port.js';
import type { Metrics } from '../../ports/metrics.port.js';
import type { Right } from '../../wire/acl.js';
import type { CertificateInfo, ProvisioningPolicy } from '../../wire/certificate.js';
import type { CertificateQuery, CertificateVerdict } from '../../wire/certificate-verdict.js';
import type {
  BatchItem,
  BatchOperation,
  BatchOutcome,
  DecryptRequest,
  DecryptResult,
  EncryptRequest,
  EncryptResult,
  IdempotencyClaim,
  MacResult,
  VerifyMacRequest,
} from '../../wire/crypto-messages.js';
import type { Identity } from '../../wire/identity.js';
import type { KeyVersionView, KeyView, NewKey } from '../../wire/key-view.js';
import type { ListResult } from '../../wire/list-result.js';
import type { NewPrincipal, PasswordVerifier, PrincipalChanges, PrincipalQuery, PrincipalView } from '../../wire/principal.js';
import type { RoleView } from '../../wire/role.js';
import type { KeyServerVersion, ServerParameter } from '../../wire/server.js';

/**
 * A KeyServer whose calls are timed for the metrics by port method name and outcome (the error's code,
 * `ok` on success); the connections it opens are metered the same way. Arguments are never looked at.
 * `fingerprint` and `daemons` do no I/O and `close` is not a call to the key server: none is timed.
 */
export class MeteredKeyServer implements KeyServer {
  readonly #inner: KeyServer;
  readonly #metrics: Metrics;

  constructor(inner: KeyServer, metrics: Metrics) {
    this.#inner = inner;
    this.#metrics = metrics;
  }

  login(user: string, password: Secret): Promise<KeyServerLogin> {
    return timed(this.#metrics, 'login', () => this.#inner.login(user, password));
  }

  certificateChallenge(certificatePem: string): Promise<{ challengeId: string; challenge: string; expiresAt: number }> {
    return timed(this.#metrics, 'certificateChallenge', () => this.#inner.certificateChallenge(certificatePem));
  }

  certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin> {
    return timed(this.#metrics, 'certificateLogin', () => this.#inner.certificateLogin(challengeId, signature));
  }

  connect(token: Secret): Promise<KeyServerConnection> {
    return timed(this.#metrics, 'connect', async () => new MeteredKeyServerConnection(await this.#inner.connect(token), this.#metrics));
  }

  fingerprint(): string {
    return this.#inner.fingerprint();
  }

  daemons(): readonly KeyServerDaemon[] {
    return this.#inner.daemons();
  }

  ping(): Promise<void> {
    return timed(this.#metrics, 'ping', () => this.#inner.ping());
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** One metered connection: each call timed by its port method name and outcome, `close` untimed. */
export class MeteredKeyServerConnection implements KeyServerConnection {
  readonly #inner: KeyServerConnection;
  readonly #metrics: Metrics;

  constructor(inner: KeyServerConnection, metrics: Metrics) {
    this.#inner = inner;
    this.#metrics = metrics;
  }

  whoami(): Promise<Identity> {
    return timed(this.#metrics, 'whoami', () => this.#inner.whoami());
  }

  heldOperations(): Promise<HeldOperations> {
    return timed(this.#metrics, 'heldOperations', () => this.#inner.heldOperations());
  }

  generateKey(options: NewKey, idempotency?: IdempotencyClaim): Promise<{ ttag: string; replayed: boolean }> {
    return timed(this.#metrics, 'generateKey', () => this.#inner.generateKey(options, idempotency));
  }

  withdrawKey(ttag: string, idempotencyKey?: string): Promise<void> {
    return timed(this.#metrics, 'withdrawKey', () => this.#inner.withdrawKey(ttag, idempotencyKey));
  }

  readKey(ttag: string): Promise<KeyView> {
    return timed(this.#metrics, 'readKey', () => this.#inner.readKey(ttag));
  }

  keyVersions(ttag: string, query: { limit: number; cursor?: string | undefined }): Promise<ListResult<KeyVersionView>> {
    return timed(this.#metrics, 'keyVersions', () => this.#inner.keyVersions(ttag, query));
  }

  expireKey(ttag: string): Promise<KeyView> {
    return timed(this.#metrics, 'expireKey', () => this.#inner.expireKey(ttag));
  }

  rotateKey(ttag: string, idempotency?: IdempotencyClaim): Promise<KeyView> {
    return timed(this.#metrics, 'rotateKey', () => this.#inner.rotateKey(ttag, idempotency));
  }

  setMinVersion(ttag: string, minVersion: number): Promise<KeyView> {
    return timed(this.#metrics, 'setMinVersion', () => this.#inner.setMinVersion(ttag, minVersion));
  }

  exportKey(ttag: string, version?: number): Promise<ExportBlob> {
    return timed(this.#metrics, 'exportKey', () => this.#inner.exportKey(ttag, version));
  }

  readAcl(ttag: string): Promise<KeyAcl> {
    return timed(this.#metrics, 'readAcl', () => this.#inner.readAcl(ttag));
  }

  grant(ttag: string, principal: string, rights: readonly Right[]): Promise<AclGrant> {
    return timed(this.#metrics, 'grant', () => this.#inner.grant(ttag, principal, rights));
  }

  revoke(ttag: string, principal: string): Promise<AclWrite> {
    return timed(this.#metrics, 'revoke', () => this.#inner.revoke(ttag, principal));
  }

  accessRights(ttag: string): Promise<readonly Right[]> {
    return timed(this.#metrics, 'accessRights', () => this.#inner.accessRights(ttag));
  }

  encrypt(ttag: string, request: EncryptRequest): Promise<EncryptResult> {
    return timed(this.#metrics, 'encrypt', () => this.#inner.encrypt(ttag, request));
  }

  decrypt(ttag: string, request: DecryptRequest): Promise<DecryptResult> {
    return timed(this.#metrics, 'decrypt', () => this.#inner.decrypt(ttag, request));
  }

  mac(ttag: string, data: Uint8Array): Promise<MacResult> {
    return timed(this.#metrics, 'mac', () => this.#inner.mac(ttag, data));
  }

  verifyMac(ttag: string, request: VerifyMacRequest): Promise<{ valid: boolean }> {
    return timed(this.#metrics, 'verifyMac', () => this.#inner.verifyMac(ttag, request));
  }

  rewrap(ttag: string, request: DecryptRequest): Promise<EncryptResult> {
    return timed(this.#metrics, 'rewrap', () => this.#inner.rewrap(ttag, request));
  }

  cryptoBatch(operation: BatchOperation, items: readonly BatchItem[]): Promise<readonly BatchOutcome[]> {
    return timed(this.#metrics, 'cryptoBatch', () => this.#inner.cryptoBatch(operation, items));
  }

  listPrincipals(query: PrincipalQuery): Promise<ListResult<PrincipalView>> {
    return timed(this.#metrics, 'listPrincipals', () => this.#inner.listPrincipals(query));
  }

  createPrincipal(input: NewPrincipal): Promise<PrincipalView> {
    return timed(this.#metrics, 'createPrincipal', () => this.#inner.createPrincipal(input));
  }

  readPrincipal(name: string): Promise<PrincipalView> {
    return timed(this.#metrics, 'readPrincipal', () => this.#inner.readPrincipal(name));
  }

  updatePrincipal(name: string, changes: PrincipalChanges): Promise<PrincipalView> {
    return timed(this.#metrics, 'updatePrincipal', () => this.#inner.updatePrincipal(name, changes));
  }

  deletePrincipal(name: string): Promise<void> {
    return timed(this.#metrics, 'deletePrincipal', () => this.#inner.deletePrincipal(name));
  }

  setPassword(name: string, verifier: PasswordVerifier, currentProof?: Secret): Promise<void> {
    return timed(this.#metrics, 'setPassword', () => this.#inner.setPassword(name, verifier, currentProof));
  }

  principalGroups(name: string): Promise<ListResult<PrincipalView>> {
    return timed(this.#metrics, 'principalGroups', () => this.#inner.principalGroups(name));
  }

  groupMembers(group: string): Promise<ListResult<PrincipalView>> {
    return timed(this.#metrics, 'groupMembers', () => this.#inner.groupMembers(group));
  }

  addGroupMember(group: string, member: string): Promise<void> {
    return timed(this.#metrics, 'addGroupMember', () => this.#inner.addGroupMember(group, member));
  }

  removeGroupMember(group: string, member: string): Promise<void> {
    return timed(this.#metrics, 'removeGroupMember', () => this.#inner.removeGroupMember(group, member));
  }

  listRoles(): Promise<ListResult<RoleView>> {
    return timed(this.#metrics, 'listRoles', () => this.#inner.listRoles());
  }

  readRole(name: string): Promise<RoleView> {
    return timed(this.#metrics, 'readRole', () => this.#inner.readRole(name));
  }

  putRole(name: string, operations: readonly string[]): Promise<RoleView> {
    return timed(this.#metrics, 'putRole', () => this.#inner.putRole(name, operations));
  }

  mintScoped(request: { objects: readonly string[]; rights?: readonly Right[] | undefined; ttlMs: number }): Promise<ScopedToken> {
    return timed(this.#metrics, 'mintScoped', () => this.#inner.mintScoped(request));
  }

  mintDelegated(target: { principal: string } | { certificate: string }): Promise<DelegatedToken> {
    return timed(this.#metrics, 'mintDelegated', () => this.#inner.mintDelegated(target));
  }

  listCertificates(query: CertificateQuery): Promise<ListResult<CertificateInfo>> {
    return timed(this.#metrics, 'listCertificates', () => this.#inner.listCertificates(query));
  }

  readCertificate(id: string): Promise<CertificateInfo> {
    return timed(this.#metrics, 'readCertificate', () => this.#inner.readCertificate(id));
  }

  parseCertificate(pem: string): Promise<CertificateInfo> {
    return timed(this.#metrics, 'parseCertificate', () => this.#inner.parseCertificate(pem));
  }

  verifyCertificate(pem: string): Promise<CertificateVerdict> {
    return timed(this.#metrics, 'verifyCertificate', () => this.#inner.verifyCertificate(pem));
  }

  listTrustAuthorities(): Promise<ListResult<CertificateInfo>> {
    return timed(this.#metrics, 'listTrustAuthorities', () => this.#inner.listTrustAuthorities());
  }

  addTrustAuthority(pem: string): Promise<CertificateInfo> {
    return timed(this.#metrics, 'addTrustAuthority', () => this.#inner.addTrustAuthority(pem));
  }

  removeTrustAuthority(id: string): Promise<void> {
    return timed(this.#metrics, 'removeTrustAuthority', () => this.#inner.removeTrustAuthority(id));
  }

  enrollCertificate(principal: string, pem: string): Promise<CertificateInfo> {
    return timed(this.#metrics, 'enrollCertificate', () => this.#inner.enrollCertificate(principal, pem));
  }

  serverVersion(): Promise<KeyServerVersion> {
    return timed(this.#metrics, 'serverVersion', () => this.#inner.serverVersion());
  }

  serverConfig(): Promise<Record<string, unknown>> {
    return timed(this.#metrics, 'serverConfig', () => this.#inner.serverConfig());
  }

  listParameters(): Promise<ListResult<ServerParameter>> {
    return timed(this.#metrics, 'listParameters', () => this.#inner.listParameters());
  }

  setParameter(name: string, value: unknown): Promise<ServerParameter> {
    return timed(this.#metrics, 'setParameter', () => this.#inner.setParameter(name, value));
  }

  putSenderKey(principal: string, jwk: unknown): Promise<{ jkt: string }> {
    return timed(this.#metrics, 'putSenderKey', () => this.#inner.putSenderKey(principal, jwk));
  }

  readPolicy(): Promise<ProvisioningPolicy> {
    return timed(this.#metrics, 'readPolicy', () => this.#inner.readPolicy());
  }

  setPolicy(name: string, value: unknown): Promise<ProvisioningPolicy> {
    return timed(this.#metrics, 'setPolicy', () => this.#inner.setPolicy(name, value));
  }

  signOut(): Promise<void> {
    return timed(this.#metrics, 'signOut', () => this.#inner.signOut());
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** Times one call and reports it under its method name, with `ok` or the error's code. */
async function timed<T>(metrics: Metrics, method: string, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await call();
    metrics.keyServerCall(method, 'ok', (performance.now() - started) / 1e3);
    return result;
  } catch (error) {
    metrics.keyServerCall(method, codeOf(error), (performance.now() - started) / 1e3);
    throw error;
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : 'UNKNOWN';
}
