import type { z } from 'zod';
import type { KeyServerEngine } from '../engine/engine.js';
import type { OperationArgs, OperationName, OPERATIONS } from '../protocol/keyserver-protocol.js';

type Handler<N extends OperationName> = (engine: KeyServerEngine, token: string, args: OperationArgs<N>) => z.input<(typeof OPERATIONS)[N]['result']>;

/**
 * `POST /v1/op/<name>`: each protocol operation mapped to the engine method that does it, as the
 * embedded adapter calls it (src/adapters/key-server/embedded-connection.ts). The engine
 * authenticates the token and decides every authorization itself.
 */
export const OPERATION_HANDLERS: { readonly [N in OperationName]: Handler<N> } = {
  whoami: (engine, token) => engine.whoami(token),
  heldOperations: (engine, token) => engine.roles.held(token),
  revokeToken: (engine, token) => (engine.revokeToken(token), null),
  mintScoped: (engine, token, args) => {
    const minted = engine.identity.mintScoped(token, args);
    return { token: minted.token, identity: minted.identity, expiresAt: minted.expiresAt ?? null, scope: minted.scope };
  },
  mintDelegated: (engine, token, args) => {
    const minted = engine.identity.mintDelegated(token, args);
    return { token: minted.token, identity: minted.identity, expiresAt: minted.expiresAt ?? null, actingFor: minted.actingFor };
  },
  generateKey: (engine, token, args) => engine.keys.generate(token, args),
  readKey: (engine, token, args) => engine.keys.view(token, args.ttag),
  expireKey: (engine, token, args) => engine.keys.expire(token, args.ttag),
  exportKey: (engine, token, args) => {
    const blob = engine.keys.exportKey(token, args.ttag);
    try {
      return { nid: blob.nid, key: blob.key.toString('base64') };
    } finally {
      blob.key.fill(0);
    }
  },
  readAcl: (engine, token, args) => engine.keys.readAcl(token, args.ttag),
  grant: (engine, token, args) => engine.keys.grant(token, args.ttag, args.principal, args.rights),
  revoke: (engine, token, args) => (engine.keys.revoke(token, args.ttag, args.principal), null),
  accessRights: (engine, token, args) => engine.keys.access(token, args.ttag).rights,
  encrypt: (engine, token, args) => engine.crypto.encrypt(token, args.ttag, args.request),
  decrypt: (engine, token, args) => engine.crypto.decrypt(token, args.ttag, args.request),
  mac: (engine, token, args) => engine.crypto.mac(token, args.ttag, args.data),
  verifyMac: (engine, token, args) => engine.crypto.verifyMac(token, args.ttag, args.data, args.mac),
  listPrincipals: (engine, token, args) => engine.principals.list(token, args),
  createPrincipal: (engine, token, args) => engine.principals.create(token, args),
  readPrincipal: (engine, token, args) => engine.principals.read(token, args.name),
  updatePrincipal: (engine, token, args) => engine.principals.update(token, args.name, args.changes),
  deletePrincipal: (engine, token, args) => (engine.principals.remove(token, args.name), null),
  setPassword: (engine, token, args) => (engine.principals.setPassword(token, args.name, args.verifier), null),
  principalGroups: (engine, token, args) => engine.principals.groups(token, args.name),
  putSenderKey: (engine, token, args) => engine.identity.putSenderKey(token, args.principal, args.jwk),
  groupMembers: (engine, token, args) => engine.groups.members(token, args.group),
  addGroupMember: (engine, token, args) => (engine.groups.addMember(token, args.group, args.member), null),
  removeGroupMember: (engine, token, args) => (engine.groups.removeMember(token, args.group, args.member), null),
  listRoles: (engine, token) => engine.roles.list(token),
  readRole: (engine, token, args) => engine.roles.read(token, args.name),
  putRole: (engine, token, args) => engine.roles.put(token, args.name, args.operations),
  listCertificates: (engine, token, args) => engine.certificates.list(token, args),
  readCertificate: (engine, token, args) => engine.certificates.read(token, args.id),
  parseCertificate: (engine, token, args) => engine.certificates.parse(token, args.pem),
  verifyCertificate: (engine, token, args) => engine.certificates.verify(token, args.pem),
  listTrustAuthorities: (engine, token) => engine.certificates.authorities(token),
  addTrustAuthority: (engine, token, args) => engine.identity.addAuthority(token, args.pem),
  removeTrustAuthority: (engine, token, args) => (engine.certificates.removeAuthority(token, args.id), null),
  enrollCertificate: (engine, token, args) => engine.identity.enroll(token, args.principal, args.pem),
  serverVersion: (engine, token) => engine.server.version(token),
  serverConfig: (engine, token) => engine.server.config(token),
  listParameters: (engine, token) => engine.server.parameters(token),
  setParameter: (engine, token, args) => engine.server.setParameter(token, args.name, args.value),
  readPolicy: (engine, token) => engine.identity.readPolicy(token),
  setPolicy: (engine, token, args) => engine.identity.setPolicy(token, args.name, args.value),
};

/** Runs one operation; the generic ties the name to its arguments. */
export function runOperation<N extends OperationName>(engine: KeyServerEngine, name: N, token: string, args: OperationArgs<N>): unknown {
  return (OPERATION_HANDLERS[name] as Handler<N>)(engine, token, args);
}
