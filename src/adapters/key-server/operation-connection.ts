import { KeyServerFailedError } from '../../domain/errors/index.js';
import { Secret } from '../../domain/secret/secret.js';
import type { OperationArgs, OperationName, OperationResult } from '../../keyserver/protocol/protocol-operations.js';
import type { DelegatedToken, KeyServerConnection, ScopedToken } from '../../ports/key-server.port.js';
import type { Right } from '../../wire/acl.js';
import type { CertificateQuery } from '../../wire/certificate-verdict.js';
import type {
  BatchItem,
  BatchOperation,
  BatchOutcome,
  DecryptRequest,
  EncryptRequest,
  IdempotencyClaim,
  VerifyMacRequest,
} from '../../wire/crypto-messages.js';
import type { NewKey } from '../../wire/key-view.js';
import type { NewPrincipal, PasswordVerifier, PrincipalChanges, PrincipalQuery } from '../../wire/principal.js';
import type { ServerParameter } from '../../wire/server.js';

/**
 * Runs one key-server operation by its protocol name (src/keyserver/protocol/protocol-operations.ts)
 * with the connection's token: the embedded engine in-process, or `POST /v1/op/<name>` to a daemon.
 */
export type Invoke = <N extends OperationName>(name: N, args: OperationArgs<N>) => Promise<OperationResult<N>>;

/**
 * The one KeyServerConnection of both deployments: each port method is one protocol operation, its
 * arguments as the protocol names them (an undefined member is left out of the JSON), its result in
 * the port's terms (binary decoded, a minted token kept as a Secret, `null` as undefined).
 */
export class OperationConnection implements KeyServerConnection {
  readonly #invoke: Invoke;
  readonly #onClose: () => void;
  #closed = false;

  constructor(invoke: Invoke, onClose: () => void = () => {}) {
    this.#invoke = invoke;
    this.#onClose = onClose;
  }

  whoami() {
    return this.#op('whoami', {});
  }

  heldOperations() {
    return this.#op('heldOperations', {});
  }

  async generateKey(options: NewKey, idempotency?: IdempotencyClaim) {
    const { keyLen, label, expiresAt, rotationPeriod } = options;
    const { ttag, replayed } = await this.#op('generateKey', { keyLen, label, expiresAt, rotationPeriod, idempotency: claim(idempotency) });
    // A key server that does not say (older than `replayed`): without an Idempotency-Key nothing is
    // replayed; with one it may be, and a key that may be another request's is never undone.
    return { ttag, replayed: replayed ?? idempotency !== undefined };
  }

  readKey(ttag: string) {
    return this.#op('readKey', { ttag });
  }

  keyVersions(ttag: string, query: { limit: number; cursor?: string | undefined }) {
    return this.#op('keyVersions', { ttag, limit: query.limit, cursor: query.cursor });
  }

  async withdrawKey(ttag: string, idempotencyKey?: string) {
    await this.#op('withdrawKey', { ttag, idempotencyKey });
  }

  expireKey(ttag: string) {
    return this.#op('expireKey', { ttag });
  }

  rotateKey(ttag: string, idempotency?: IdempotencyClaim) {
    return this.#op('rotateKey', { ttag, idempotency: claim(idempotency) });
  }

  setMinVersion(ttag: string, minVersion: number) {
    return this.#op('setMinVersion', { ttag, minVersion });
  }

  /** The key as the operation answers it: bytes the caller zeroes once wrapped, never a string. */
  exportKey(ttag: string, version?: number) {
    return this.#op('exportKey', { ttag, version });
  }

  readAcl(ttag: string) {
    return this.#op('readAcl', { ttag });
  }

  grant(ttag: string, principal: string, rights: readonly Right[]) {
    return this.#op('grant', { ttag, principal, rights });
  }

  revoke(ttag: string, principal: string) {
    return this.#op('revoke', { ttag, principal });
  }

  accessRights(ttag: string) {
    return this.#op('accessRights', { ttag });
  }

  encrypt(ttag: string, request: EncryptRequest) {
    return this.#op('encrypt', { ttag, request: { plaintext: request.plaintext, aad: request.aad } });
  }

  decrypt(ttag: string, request: DecryptRequest) {
    return this.#op('decrypt', { ttag, request: decryptArgs(request) });
  }

  mac(ttag: string, data: Uint8Array) {
    return this.#op('mac', { ttag, data });
  }

  verifyMac(ttag: string, request: VerifyMacRequest) {
    return this.#op('verifyMac', { ttag, request: { data: request.data, mac: request.mac, version: request.version } });
  }

  rewrap(ttag: string, request: DecryptRequest) {
    return this.#op('rewrap', { ttag, request: decryptArgs(request) });
  }

  cryptoBatch(operation: BatchOperation, items: readonly BatchItem[]): Promise<readonly BatchOutcome[]> {
    return this.#op('cryptoBatch', { operation, items: items.map(batchArgs) });
  }

  listPrincipals(query: PrincipalQuery) {
    return this.#op('listPrincipals', { kind: query.kind, limit: query.limit, cursor: query.cursor });
  }

  createPrincipal(input: NewPrincipal) {
    const { name, kind, displayName, roles, verifier } = input;
    return this.#op('createPrincipal', {
      name,
      kind,
      displayName,
      roles,
      verifier: verifier && { salt: verifier.salt, verifier: verifier.verifier },
    });
  }

  readPrincipal(name: string) {
    return this.#op('readPrincipal', { name });
  }

  updatePrincipal(name: string, changes: PrincipalChanges) {
    return this.#op('updatePrincipal', {
      name,
      changes: { displayName: changes.displayName, disabled: changes.disabled, roles: changes.roles, delegates: changes.delegates },
    });
  }

  async deletePrincipal(name: string) {
    await this.#op('deletePrincipal', { name });
  }

  async setPassword(name: string, verifier: PasswordVerifier, currentProof?: Secret) {
    const proof = currentProof === undefined ? {} : { currentProof: currentProof.reveal() };
    await this.#op('setPassword', { name, verifier: { salt: verifier.salt, verifier: verifier.verifier }, ...proof });
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
    return {
      token: new Secret(minted.token),
      identity: minted.identity,
      expiresAt: minted.expiresAt ?? undefined,
      actingFor: minted.actingFor,
    };
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
    this.#onClose();
  }

  async #op<N extends OperationName>(name: N, args: OperationArgs<N>): Promise<OperationResult<N>> {
    if (this.#closed) throw new KeyServerFailedError('connection is closed');
    return this.#invoke(name, args);
  }
}

/** The claim's two members only (a caller's object may carry more). */
function claim(idempotency: IdempotencyClaim | undefined) {
  return idempotency === undefined ? undefined : { key: idempotency.key, fingerprint: idempotency.fingerprint };
}

function decryptArgs(request: DecryptRequest) {
  const { ciphertext, iv, authTag, aad, version } = request;
  return { ciphertext, iv, authTag, aad, version };
}

/** A batch item with the members the protocol knows, whichever operation it is for. */
function batchArgs(item: BatchItem) {
  const any = item as Partial<Record<'plaintext' | 'aad' | 'ciphertext' | 'iv' | 'authTag' | 'data' | 'mac', Uint8Array>> & {
    version?: number;
  };
  const { plaintext, aad, ciphertext, iv, authTag, data, mac, version } = any;
  return { ttag: item.ttag, plaintext, aad, ciphertext, iv, authTag, data, mac, version };
}

/** Binary values travel as standard base64 (docs/keyserver-protocol.md). */
export function decode(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}
