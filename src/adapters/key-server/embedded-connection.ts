import type { Right } from '../../wire/acl.js';
import type { CertificateQuery } from '../../wire/certificate-verdict.js';
import type { DecryptRequest, EncryptRequest } from '../../wire/crypto-messages.js';
import { KeyServerFailedError } from '../../domain/errors/index.js';
import { isKeyServerError } from '../../keyserver/model/key-server-errors.js';
import type { NewKey } from '../../wire/key-view.js';
import type { NewPrincipal, PasswordVerifier, PrincipalChanges, PrincipalQuery } from '../../wire/principal.js';
import { Secret } from '../../domain/secret/secret.js';
import type { KeyServerEngine } from '../../keyserver/engine/engine.js';
import type { DelegatedToken, KeyServerConnection, ScopedToken } from '../../ports/key-server.port.js';
import { rebuildKeyServerError } from './wire-error.js';

/** One connection of the embedded key server: every call goes to the engine with the stored token. */
export class EmbeddedConnection implements KeyServerConnection {
  readonly #engine: KeyServerEngine;
  readonly #token: Secret;
  #closed = false;

  constructor(engine: KeyServerEngine, token: Secret) {
    this.#engine = engine;
    this.#token = token;
  }

  whoami() {
    return this.#run((token) => this.#engine.whoami(token));
  }

  heldOperations() {
    return this.#run((token) => this.#engine.roles.held(token));
  }

  generateKey(options: NewKey) {
    return this.#run((token) => this.#engine.keys.generate(token, options));
  }

  readKey(ttag: string) {
    return this.#run((token) => this.#engine.keys.view(token, ttag));
  }

  expireKey(ttag: string) {
    return this.#run((token) => this.#engine.keys.expire(token, ttag));
  }

  exportKey(ttag: string) {
    return this.#run((token) => this.#engine.keys.exportKey(token, ttag));
  }

  readAcl(ttag: string) {
    return this.#run((token) => this.#engine.keys.readAcl(token, ttag));
  }

  grant(ttag: string, principal: string, rights: readonly Right[]) {
    return this.#run((token) => this.#engine.keys.grant(token, ttag, principal, rights));
  }

  revoke(ttag: string, principal: string) {
    return this.#run((token) => this.#engine.keys.revoke(token, ttag, principal));
  }

  accessRights(ttag: string) {
    return this.#run((token) => this.#engine.keys.access(token, ttag).rights);
  }

  encrypt(ttag: string, request: EncryptRequest) {
    return this.#run((token) => this.#engine.crypto.encrypt(token, ttag, request));
  }

  decrypt(ttag: string, request: DecryptRequest) {
    return this.#run((token) => this.#engine.crypto.decrypt(token, ttag, request));
  }

  mac(ttag: string, data: string) {
    return this.#run((token) => this.#engine.crypto.mac(token, ttag, data));
  }

  verifyMac(ttag: string, data: string, mac: string) {
    return this.#run((token) => this.#engine.crypto.verifyMac(token, ttag, data, mac));
  }

  listPrincipals(query: PrincipalQuery) {
    return this.#run((token) => this.#engine.principals.list(token, query));
  }

  createPrincipal(input: NewPrincipal) {
    return this.#run((token) => this.#engine.principals.create(token, input));
  }

  readPrincipal(name: string) {
    return this.#run((token) => this.#engine.principals.read(token, name));
  }

  updatePrincipal(name: string, changes: PrincipalChanges) {
    return this.#run((token) => this.#engine.principals.update(token, name, changes));
  }

  deletePrincipal(name: string) {
    return this.#run((token) => this.#engine.principals.remove(token, name));
  }

  setPassword(name: string, verifier: PasswordVerifier) {
    return this.#run((token) => this.#engine.principals.setPassword(token, name, verifier));
  }

  principalGroups(name: string) {
    return this.#run((token) => this.#engine.principals.groups(token, name));
  }

  groupMembers(group: string) {
    return this.#run((token) => this.#engine.groups.members(token, group));
  }

  addGroupMember(group: string, member: string) {
    return this.#run((token) => this.#engine.groups.addMember(token, group, member));
  }

  removeGroupMember(group: string, member: string) {
    return this.#run((token) => this.#engine.groups.removeMember(token, group, member));
  }

  listRoles() {
    return this.#run((token) => this.#engine.roles.list(token));
  }

  readRole(name: string) {
    return this.#run((token) => this.#engine.roles.read(token, name));
  }

  putRole(name: string, operations: readonly string[]) {
    return this.#run((token) => this.#engine.roles.put(token, name, operations));
  }

  mintScoped(request: { objects: readonly string[]; rights?: readonly Right[] | undefined; ttlMs: number }): Promise<ScopedToken> {
    return this.#run((token) => {
      const minted = this.#engine.identity.mintScoped(token, request);
      return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt, scope: minted.scope };
    });
  }

  mintDelegated(target: { principal: string } | { certificate: string }): Promise<DelegatedToken> {
    return this.#run((token) => {
      const minted = this.#engine.identity.mintDelegated(token, target);
      return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt, actingFor: minted.actingFor };
    });
  }

  listCertificates(query: CertificateQuery) {
    return this.#run((token) => this.#engine.certificates.list(token, query));
  }

  readCertificate(id: string) {
    return this.#run((token) => this.#engine.certificates.read(token, id));
  }

  parseCertificate(pem: string) {
    return this.#run((token) => this.#engine.certificates.parse(token, pem));
  }

  verifyCertificate(pem: string) {
    return this.#run((token) => this.#engine.certificates.verify(token, pem));
  }

  listTrustAuthorities() {
    return this.#run((token) => this.#engine.certificates.authorities(token));
  }

  removeTrustAuthority(id: string) {
    return this.#run((token) => this.#engine.certificates.removeAuthority(token, id));
  }

  serverVersion() {
    return this.#run((token) => this.#engine.server.version(token));
  }

  serverConfig() {
    return this.#run((token) => this.#engine.server.config(token));
  }

  listParameters() {
    return this.#run((token) => this.#engine.server.parameters(token));
  }

  setParameter(name: string, value: unknown) {
    return this.#run((token) => this.#engine.server.setParameter(token, name, value));
  }

  addTrustAuthority(pem: string) {
    return this.#run((token) => this.#engine.identity.addAuthority(token, pem));
  }

  enrollCertificate(principal: string, pem: string) {
    return this.#run((token) => this.#engine.identity.enroll(token, principal, pem));
  }

  putSenderKey(principal: string, jwk: unknown) {
    return this.#run((token) => this.#engine.identity.putSenderKey(token, principal, jwk));
  }

  readPolicy() {
    return this.#run((token) => this.#engine.identity.readPolicy(token));
  }

  setPolicy(name: string, value: unknown) {
    return this.#run((token) => this.#engine.identity.setPolicy(token, name, value));
  }

  signOut() {
    return this.#run((token) => this.#engine.revokeToken(token));
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  async #run<T>(operation: (token: string) => T): Promise<T> {
    if (this.#closed) throw new KeyServerFailedError('connection is closed');
    return guard(() => operation(this.#token.reveal()));
  }
}

/**
 * Engine errors carry codes that travel (src/wire/error-codes.ts): each is rebuilt as the gateway's
 * own error exactly as a daemon answer is; anything else is a key-server failure.
 */
export function guard<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (isKeyServerError(error)) throw rebuildKeyServerError(error.code, error.detail, error.reason, error);
    throw new KeyServerFailedError('key server operation failed', error);
  }
}
