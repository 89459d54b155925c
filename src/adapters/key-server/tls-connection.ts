import type { z } from 'zod';
import type { Right } from '../../domain/acl/acl.js';
import type { CertificateQuery } from '../../domain/certificate/certificate-verdict.js';
import type { DecryptRequest, EncryptRequest } from '../../domain/crypto/crypto-messages.js';
import { KeyServerFailedError } from '../../domain/errors/index.js';
import type { NewKey } from '../../domain/key/key-view.js';
import type { NewPrincipal, PasswordVerifier, PrincipalChanges, PrincipalQuery } from '../../domain/principal/principal.js';
import { Secret } from '../../domain/secret/secret.js';
import type { ServerParameter } from '../../domain/server/server.js';
import { OPERATIONS, PATHS, type OperationArgs, type OperationName, type OperationResult } from '../../keyserver/protocol/keyserver-protocol.js';
import type { DelegatedToken, KeyServerConnection, ScopedToken } from '../../ports/key-server.port.js';
import type { TlsChannel } from './tls-channel.js';

/**
 * One gateway request's connection: each port method is one `POST /v1/op/<name>`. Arguments go as
 * the protocol names them (an undefined member is left out of the JSON); replies are checked
 * against the protocol's schemas.
 */
export class TlsConnection implements KeyServerConnection {
  readonly #channel: TlsChannel;
  readonly #token: Secret;
  #closed = false;

  constructor(channel: TlsChannel, token: Secret) {
    this.#channel = channel;
    this.#token = token;
  }

  whoami() {
    return this.#op('whoami', {});
  }

  heldOperations() {
    return this.#op('heldOperations', {});
  }

  generateKey(options: NewKey) {
    return this.#op('generateKey', { keyLen: options.keyLen, label: options.label, expiresAt: options.expiresAt });
  }

  readKey(ttag: string) {
    return this.#op('readKey', { ttag });
  }

  expireKey(ttag: string) {
    return this.#op('expireKey', { ttag });
  }

  async exportKey(ttag: string) {
    const { nid, key } = await this.#op('exportKey', { ttag });
    return { nid, key: decode(key) };
  }

  readAcl(ttag: string) {
    return this.#op('readAcl', { ttag });
  }

  grant(ttag: string, principal: string, rights: readonly Right[]) {
    return this.#op('grant', { ttag, principal, rights });
  }

  async revoke(ttag: string, principal: string) {
    await this.#op('revoke', { ttag, principal });
  }

  accessRights(ttag: string) {
    return this.#op('accessRights', { ttag });
  }

  encrypt(ttag: string, request: EncryptRequest) {
    return this.#op('encrypt', { ttag, request: { plaintext: request.plaintext, aad: request.aad } });
  }

  decrypt(ttag: string, request: DecryptRequest) {
    const { ciphertext, iv, authTag, aad } = request;
    return this.#op('decrypt', { ttag, request: { ciphertext, iv, authTag, aad } });
  }

  mac(ttag: string, data: string) {
    return this.#op('mac', { ttag, data });
  }

  verifyMac(ttag: string, data: string, mac: string) {
    return this.#op('verifyMac', { ttag, data, mac });
  }

  listPrincipals(query: PrincipalQuery) {
    return this.#op('listPrincipals', { kind: query.kind, limit: query.limit, cursor: query.cursor });
  }

  createPrincipal(input: NewPrincipal) {
    const { name, kind, displayName, roles, verifier } = input;
    return this.#op('createPrincipal', { name, kind, displayName, roles, verifier: verifier && { salt: verifier.salt, verifier: verifier.verifier } });
  }

  readPrincipal(name: string) {
    return this.#op('readPrincipal', { name });
  }

  updatePrincipal(name: string, changes: PrincipalChanges) {
    return this.#op('updatePrincipal', { name, changes: { displayName: changes.displayName, disabled: changes.disabled, roles: changes.roles } });
  }

  async deletePrincipal(name: string) {
    await this.#op('deletePrincipal', { name });
  }

  async setPassword(name: string, verifier: PasswordVerifier) {
    await this.#op('setPassword', { name, verifier: { salt: verifier.salt, verifier: verifier.verifier } });
  }

  principalGroups(name: string) {
    return this.#op('principalGroups', { name });
  }

  putSenderKey(principal: string, jwk: unknown) {
    return this.#op('putSenderKey', { principal, jwk: jwk as Record<string, unknown> });
  }

  groupMembers(group: string) {
    return this.#op('groupMembers', { group });
  }

  async addGroupMember(group: string, member: string) {
    await this.#op('addGroupMember', { group, member });
  }

  async removeGroupMember(group: string, member: string) {
    await this.#op('removeGroupMember', { group, member });
  }

  listRoles() {
    return this.#op('listRoles', {});
  }

  readRole(name: string) {
    return this.#op('readRole', { name });
  }

  putRole(name: string, operations: readonly string[]) {
    return this.#op('putRole', { name, operations: [...operations] });
  }

  async mintScoped(request: { objects: readonly string[]; rights?: readonly Right[] | undefined; ttlMs: number }): Promise<ScopedToken> {
    const minted = await this.#op('mintScoped', { objects: [...request.objects], rights: request.rights, ttlMs: request.ttlMs });
    return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt ?? undefined, scope: minted.scope };
  }

  async mintDelegated(target: { principal: string } | { certificate: string }): Promise<DelegatedToken> {
    const minted = await this.#op('mintDelegated', target);
    return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt ?? undefined, actingFor: minted.actingFor };
  }

  listCertificates(query: CertificateQuery) {
    return this.#op('listCertificates', { subject: query.subject, principal: query.principal, limit: query.limit, cursor: query.cursor });
  }

  readCertificate(id: string) {
    return this.#op('readCertificate', { id });
  }

  parseCertificate(pem: string) {
    return this.#op('parseCertificate', { pem });
  }

  verifyCertificate(pem: string) {
    return this.#op('verifyCertificate', { pem });
  }

  listTrustAuthorities() {
    return this.#op('listTrustAuthorities', {});
  }

  addTrustAuthority(pem: string) {
    return this.#op('addTrustAuthority', { pem });
  }

  async removeTrustAuthority(id: string) {
    await this.#op('removeTrustAuthority', { id });
  }

  enrollCertificate(principal: string, pem: string) {
    return this.#op('enrollCertificate', { principal, pem });
  }

  serverVersion() {
    return this.#op('serverVersion', {});
  }

  serverConfig() {
    return this.#op('serverConfig', {});
  }

  listParameters() {
    return this.#op('listParameters', {});
  }

  setParameter(name: string, value: unknown) {
    return this.#op('setParameter', { name, value: value as ServerParameter['value'] });
  }

  readPolicy() {
    return this.#op('readPolicy', {});
  }

  setPolicy(name: string, value: unknown) {
    return this.#op('setPolicy', { name, value });
  }

  async signOut() {
    await this.#op('revokeToken', {});
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channel.close();
  }

  async #op<N extends OperationName>(name: N, args: OperationArgs<N>): Promise<OperationResult<N>> {
    if (this.#closed) throw new KeyServerFailedError('connection is closed');
    const reply = await this.#channel.call('POST', PATHS.operation(name), args, this.#token);
    if (typeof reply !== 'object' || reply === null || !('result' in reply)) {
      throw new KeyServerFailedError(`key server reply to ${name} does not follow the protocol`);
    }
    return parseReply(OPERATIONS[name].result, reply.result, name) as OperationResult<N>;
  }
}

/** Style rule 8: a key-server reply is validated at the adapter; a mismatch is KEY_SERVER_FAILED. */
export function parseReply<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new KeyServerFailedError(`key server reply to ${what} does not follow the protocol`);
  return parsed.data;
}

/** Binary values travel as standard base64 (docs/keyserver-protocol.md). */
export function decode(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}
