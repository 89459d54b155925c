import type { OperationArgs, OperationName, OperationResult } from '../../wire/keyserver-operations.js';
import type { KeyServerEngine } from '../engine/engine.js';
import { runCryptoBatch } from './batch-items.js';

/** The engine function behind one operation: the token first, the arguments and result as the table's schemas output them. */
export type EngineFunction<N extends OperationName> = (
  engine: KeyServerEngine,
  token: string,
  args: OperationArgs<N>,
) => Promise<OperationResult<N>>;

/**
 * The key server's half of each operation the table declares (src/wire/keyserver-operations.ts): the
 * engine function its name reaches. Typed over the table's names, so an operation declared there and
 * not bound here (or bound to a function of another shape) does not compile. The daemon's handler and
 * the embedded adapter both run operations through `runOperation`.
 */
export const ENGINE_FUNCTIONS: { readonly [N in OperationName]: EngineFunction<N> } = {
  whoami: (engine, token) => engine.whoami(token),
  heldOperations: (engine, token) => engine.roles.held(token),
  revokeToken: async (engine, token) => (await engine.revokeToken(token), null),
  mintScoped: async (engine, token, args) => {
    const issued = await engine.identity.mintScoped(token, args);
    return { token: issued.token, identity: issued.identity, expiresAt: issued.expiresAt ?? null, scope: issued.scope };
  },
  mintDelegated: async (engine, token, args) => {
    const issued = await engine.identity.mintDelegated(token, args);
    return { token: issued.token, identity: issued.identity, expiresAt: issued.expiresAt ?? null, actingFor: issued.actingFor };
  },
  // Keys and key ACLs (docs/spec.md §4.6, §4.7).
  generateKey: (engine, token, { idempotency, ...options }) => engine.keys.generate(token, options, idempotency),
  withdrawKey: async (engine, token, args) => (await engine.keys.withdraw(token, args.ttag, args.idempotencyKey), null),
  readKey: (engine, token, args) => engine.keys.view(token, args.ttag),
  keyVersions: (engine, token, args) => engine.keys.versions(token, args.ttag, args),
  listKeys: (engine, token, args) => engine.inventory.list(token, args),
  putKeyTag: (engine, token, args) => engine.inventory.putTag(token, args.ttag, args.name, args.value),
  keyTags: (engine, token, args) => engine.inventory.tags(token, args.ttag),
  deleteKeyTag: (engine, token, args) => engine.inventory.deleteTag(token, args.ttag, args.name),
  expireKey: (engine, token, args) => engine.keys.expire(token, args.ttag),
  disableKey: (engine, token, args) => engine.keys.disable(token, args.ttag),
  enableKey: (engine, token, args) => engine.keys.enable(token, args.ttag),
  scheduleKeyDeletion: (engine, token, args) => engine.keyDeletion.schedule(token, args.ttag, args.pendingDays),
  cancelKeyDeletion: (engine, token, args) => engine.keyDeletion.cancel(token, args.ttag),
  // A gateway's own calls: no token (GATEWAY_OPERATIONS below; docs/keyserver-protocol.md "Gateway calls").
  claimKeyDestructions: async (engine) => ({ items: await engine.claimDestructions() }),
  confirmKeyDestruction: async (engine, _token, args) => (await engine.confirmDestruction(args.ttag), null),
  rotateKey: (engine, token, args) => engine.keys.rotate(token, args.ttag, args.idempotency),
  setMinVersion: (engine, token, args) => engine.keys.setMinVersion(token, args.ttag, args.minVersion),
  setPublished: (engine, token, args) => engine.publication.setPublished(token, args.ttag, args.published),
  publishedJwks: (engine, _token, args) => engine.publication.publishedJwks(args.ttag),
  exportKey: (engine, token, args) => engine.keys.exportKey(token, args.ttag, args.version, args.aesOnly === true),
  readAcl: (engine, token, args) => engine.keys.readAcl(token, args.ttag),
  grant: (engine, token, args) => engine.keys.grant(token, args.ttag, args.principal, args.rights, args.conditions),
  revoke: (engine, token, args) => engine.keys.revoke(token, args.ttag, args.principal),
  // The rights alone, as before aliases and conditions; an object when an alias named the key or the
  // caller's entries include conditioned ones (docs/spec.md §4.5b item 4).
  accessRights: async (engine, token, args) => {
    const access = await engine.keys.access(token, args.ttag);
    return access.resolved === undefined && access.conditional === undefined ? access.rights : access;
  },
  // Data cryptography (9-12).
  encrypt: (engine, token, args) => engine.crypto.encrypt(token, args.ttag, args.request),
  decrypt: (engine, token, args) => engine.crypto.decrypt(token, args.ttag, args.request),
  mac: (engine, token, args) => engine.crypto.mac(token, args.ttag, args.data),
  verifyMac: (engine, token, args) => engine.crypto.verifyMac(token, args.ttag, args.request),
  rewrap: (engine, token, args) => engine.crypto.rewrap(token, args.ttag, args.request),
  generateDataKey: (engine, token, args) => engine.crypto.generateDataKey(token, args.ttag, args),
  openDataKey: (engine, token, args) => engine.crypto.openDataKey(token, args.ttag, args),
  // Signing keys (docs/spec.md §4.25).
  sign: (engine, token, args) => engine.signing.sign(token, args.ttag, args.request),
  verifySignature: (engine, token, args) => engine.signing.verify(token, args.ttag, args.request),
  signJwt: (engine, token, args) => engine.signing.signJwt(token, args.ttag, args),
  publicKey: (engine, token, args) => engine.signing.publicKey(token, args.ttag, args.version),
  keyJwks: (engine, token, args) => engine.signing.jwks(token, args.ttag),
  // Aliases (docs/spec.md §4.23 item 3).
  putAlias: (engine, token, args) => engine.aliases.put(token, args.alias, args.ttag),
  deleteAlias: (engine, token, args) => engine.aliases.remove(token, args.alias),
  listAliases: (engine, token, args) => engine.aliases.list(token, args),
  cryptoBatch: (engine, token, args) => runCryptoBatch(engine, token, args.operation, args.items),
  // Principals, sender keys, groups and roles (21-34).
  listPrincipals: (engine, token, args) => engine.principals.list(token, args),
  createPrincipal: (engine, token, args) => engine.principals.create(token, args),
  readPrincipal: (engine, token, args) => engine.principals.read(token, args.name),
  updatePrincipal: (engine, token, args) => engine.principals.update(token, args.name, args.changes),
  deletePrincipal: async (engine, token, args) => (await engine.principals.remove(token, args.name), null),
  setPassword: async (engine, token, args) => (
    await engine.principals.setPassword(token, args.name, args.verifier, args.currentProof), null
  ),
  principalGroups: (engine, token, args) => engine.principals.groups(token, args.name),
  putSenderKey: (engine, token, args) => engine.identity.putSenderKey(token, args.principal, args.jwk),
  listGroups: (engine, token, args) => engine.groups.list(token, args),
  groupMembers: (engine, token, args) => engine.groups.members(token, args.group),
  addGroupMember: async (engine, token, args) => (await engine.groups.addMember(token, args.group, args.member), null),
  removeGroupMember: async (engine, token, args) => (await engine.groups.removeMember(token, args.group, args.member), null),
  listRoles: (engine, token) => engine.roles.list(token),
  readRole: (engine, token, args) => engine.roles.read(token, args.name),
  putRole: (engine, token, args) => engine.roles.put(token, args.name, args.operations),
  // Certificates and certificate trust (35-42).
  listCertificates: (engine, token, args) => engine.certificates.list(token, args),
  readCertificate: (engine, token, args) => engine.certificates.read(token, args.id),
  parseCertificate: (engine, token, args) => engine.certificates.parse(token, args.pem),
  verifyCertificate: (engine, token, args) => engine.certificates.verify(token, args.pem),
  listTrustAuthorities: (engine, token) => engine.certificates.authorities(token),
  addTrustAuthority: (engine, token, args) => engine.identity.addAuthority(token, args.pem),
  removeTrustAuthority: async (engine, token, args) => (await engine.certificates.removeAuthority(token, args.id), null),
  enrollCertificate: (engine, token, args) => engine.identity.enroll(token, args.principal, args.pem),
  // Server administration and the provisioning policy (43-48).
  serverVersion: (engine, token) => engine.server.version(token),
  serverConfig: (engine, token) => engine.server.config(token),
  listParameters: (engine, token) => engine.server.parameters(token),
  setParameter: (engine, token, args) => engine.server.setParameter(token, args.name, args.value),
  readPolicy: (engine, token) => engine.identity.readPolicy(token),
  setPolicy: (engine, token, args) => engine.identity.setPolicy(token, args.name, args.value),
  // Trusted issuers of workload identity tokens (docs/spec.md §4.24 item 1).
  listIssuers: (engine, token) => engine.issuers.list(token),
  readIssuer: (engine, token, args) => engine.issuers.read(token, args.name),
  putIssuer: (engine, token, args) => engine.issuers.put(token, args.name, args.settings),
  deleteIssuer: async (engine, token, args) => (await engine.issuers.remove(token, args.name), null),
};

/**
 * The operations a gateway calls as itself rather than for a user: they take no token, as the health
 * call; what lets a caller reach them is what lets it reach the daemon at all, a gateway's client
 * certificate (mutual TLS), or being the gateway's own process (the embedded key server). They hand
 * out and mark ttags and times of destroyed keys, and the public keys of a published signing key
 * (docs/spec.md §4.25 item 7), nothing of a key's material or of a principal.
 */
export const GATEWAY_OPERATIONS: ReadonlySet<OperationName> = new Set(['claimKeyDestructions', 'confirmKeyDestruction', 'publishedJwks']);

/**
 * Runs one operation on the engine as one unit of its store (`KeyServerEngine.atomically`); the
 * generic ties the name to its arguments and result, both in the schemas' output form (bytes, not
 * base64): the embedded adapter hands them over as they are, the daemon encodes the result with
 * `toWire`, and a daemon's client decodes it with the same result schema.
 */
export async function runOperation<N extends OperationName>(
  engine: KeyServerEngine,
  name: N,
  token: string,
  args: OperationArgs<N>,
): Promise<OperationResult<N>> {
  const run: EngineFunction<N> = ENGINE_FUNCTIONS[name];
  return engine.atomically(() => run(engine, token, args));
}
