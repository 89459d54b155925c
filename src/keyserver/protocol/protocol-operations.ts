import { z } from 'zod';
import type { KeyServerEngine } from '../engine/engine.js';
import { runCryptoBatch } from './batch-items.js';
import { mintedToken } from './keyserver-protocol.js';
import {
  batchItems,
  batchOperation,
  batchOutcomes,
  bytes,
  certificate,
  certificateQuery,
  cursor,
  decryptRequest,
  encryptRequest,
  encryptResult,
  heldOperations,
  idempotencyClaim,
  identity,
  keyVersion,
  keyVersionView,
  keyView,
  list,
  macResult,
  name,
  newKey,
  newPrincipal,
  parameter,
  parameterValue,
  payloadBytes,
  pem,
  policy,
  principalChanges,
  principalQuery,
  principalView,
  rights,
  role,
  ruled,
  ruledJson,
  ttag,
  verdict,
  verifier,
  verifyMacRequest,
} from './protocol-values.js';

/** One operation: what it takes, what it answers, and the engine function between the two. */
export interface OperationDefinition<A extends z.ZodType, R extends z.ZodType> {
  readonly args: A;
  readonly result: R;
  readonly run: (engine: KeyServerEngine, token: string, args: z.output<A>) => Promise<z.output<R>>;
}

function op<A extends z.ZodType, R extends z.ZodType>(
  args: A,
  result: R,
  run: OperationDefinition<A, R>['run'],
): OperationDefinition<A, R> {
  return { args, result, run };
}

const none = z.strictObject({});
/** A key's ACL revision (docs/spec.md §4.1 item 3): what a grant or revoke produced, what a read shows now. */
const aclRevision = z.number().int().nonnegative();
const certificateId = ruled(z.string().min(1).max(128));

/**
 * The engine operations a token holder may call as `POST /v1/op/<name>`: arguments in the body,
 * `{ result }` in the answer (docs/keyserver-protocol.md). Each entry is the operation's whole
 * definition: its arguments' schema, its result's schema and the engine function that runs it. The
 * daemon's handler and the embedded adapter both run operations from this table, and the gateway's
 * one connection class (src/adapters/key-server/operation-connection.ts) calls them by name, so a
 * new operation is one entry here and its method on the KeyServerConnection port. One entry per port
 * method, named alike, except `signOut`, which is `revokeToken`.
 *
 * Arguments and results are the schemas' output: binary values of data cryptography and export are
 * bytes (protocol-values.ts `bytes`), which `toWire` turns to base64 only where a wire carries them.
 * The byte arrays an engine function answers are fresh and belong to its caller, who zeroes them once
 * used: the gateway after the export wrap or the HTTP answer, the daemon once it encoded its answer.
 */
export const OPERATIONS = {
  whoami: op(none, identity, (engine, token) => engine.whoami(token)),
  /** The caller's operations (its roles and its groups' roles), and whether its token is scoped. */
  heldOperations: op(none, heldOperations, (engine, token) => engine.roles.held(token)),
  revokeToken: op(none, z.null(), async (engine, token) => (await engine.revokeToken(token), null)),
  mintScoped: op(
    z.strictObject({ objects: z.array(ttag).min(1).max(100), rights: rights.optional(), ttlMs: z.number().int().positive() }),
    z.strictObject({ ...mintedToken, scope: z.record(z.string(), rights) }),
    async (engine, token, args) => {
      const issued = await engine.identity.mintScoped(token, args);
      return { token: issued.token, identity: issued.identity, expiresAt: issued.expiresAt ?? null, scope: issued.scope };
    },
  ),
  mintDelegated: op(
    z.union([z.strictObject({ principal: name }), z.strictObject({ certificate: pem })]),
    z.strictObject({ ...mintedToken, actingFor: z.string() }),
    async (engine, token, args) => {
      const issued = await engine.identity.mintDelegated(token, args);
      return { token: issued.token, identity: issued.identity, expiresAt: issued.expiresAt ?? null, actingFor: issued.actingFor };
    },
  ),
  // Keys and key ACLs (docs/spec.md §4.6, §4.7).
  /**
   * `replayed`: the answer is an earlier request's under the same Idempotency-Key; this one made nothing.
   * Optional on the wire: a key server older than it does not send it (the gateway then reads a
   * creation with an Idempotency-Key as possibly replayed, and never undoes it).
   */
  generateKey: op(
    newKey.extend({ idempotency: idempotencyClaim.optional() }),
    z.strictObject({ ttag: z.string().min(1).max(1024), replayed: z.boolean().optional() }),
    (engine, token, { idempotency, ...options }) => engine.keys.generate(token, options, idempotency),
  ),
  /** Undoes the caller's own creation (expired; its idempotency record under `idempotencyKey` forgotten), unless a replay holds it. */
  withdrawKey: op(
    z.strictObject({ ttag, idempotencyKey: z.string().min(1).max(255).optional() }),
    z.null(),
    async (engine, token, args) => (await engine.keys.withdraw(token, args.ttag, args.idempotencyKey), null),
  ),
  readKey: op(z.strictObject({ ttag }), keyView, (engine, token, args) => engine.keys.view(token, args.ttag)),
  keyVersions: op(
    z.strictObject({ ttag, limit: z.number().int(), cursor: cursor.optional() }),
    list(keyVersionView),
    (engine, token, args) => engine.keys.versions(token, args.ttag, args),
  ),
  expireKey: op(z.strictObject({ ttag }), keyView, (engine, token, args) => engine.keys.expire(token, args.ttag)),
  // Key versions: rotation adds one, the minimum version retires those below it.
  rotateKey: op(z.strictObject({ ttag, idempotency: idempotencyClaim.optional() }), keyView, (engine, token, args) =>
    engine.keys.rotate(token, args.ttag, args.idempotency),
  ),
  setMinVersion: op(z.strictObject({ ttag, minVersion: keyVersion }), keyView, (engine, token, args) =>
    engine.keys.setMinVersion(token, args.ttag, args.minVersion),
  ),
  // The key as bytes, a copy its receiver zeroes once used (the daemon once its answer is encoded).
  exportKey: op(
    z.strictObject({ ttag, version: keyVersion.optional() }),
    z.strictObject({ nid: z.number().int(), key: bytes, version: z.number().int().positive() }),
    (engine, token, args) => engine.keys.exportKey(token, args.ttag, args.version),
  ),
  readAcl: op(
    z.strictObject({ ttag }),
    z.strictObject({
      owner: identity,
      entries: z
        .array(z.strictObject({ principal: identity, rights }))
        .max(10_000)
        .readonly(),
      revision: aclRevision,
    }),
    (engine, token, args) => engine.keys.readAcl(token, args.ttag),
  ),
  grant: op(
    z.strictObject({ ttag, principal: name, rights }),
    z.strictObject({ grantee: identity, revision: aclRevision }),
    (engine, token, args) => engine.keys.grant(token, args.ttag, args.principal, args.rights),
  ),
  revoke: op(z.strictObject({ ttag, principal: name }), z.strictObject({ revision: aclRevision }), (engine, token, args) =>
    engine.keys.revoke(token, args.ttag, args.principal),
  ),
  accessRights: op(z.strictObject({ ttag }), rights, async (engine, token, args) => (await engine.keys.access(token, args.ttag)).rights),
  // Data cryptography (9-12).
  encrypt: op(z.strictObject({ ttag, request: encryptRequest }), encryptResult, (engine, token, args) =>
    engine.crypto.encrypt(token, args.ttag, args.request),
  ),
  decrypt: op(z.strictObject({ ttag, request: decryptRequest }), z.strictObject({ plaintext: payloadBytes }), (engine, token, args) =>
    engine.crypto.decrypt(token, args.ttag, args.request),
  ),
  mac: op(z.strictObject({ ttag, data: payloadBytes }), macResult, (engine, token, args) => engine.crypto.mac(token, args.ttag, args.data)),
  verifyMac: op(z.strictObject({ ttag, request: verifyMacRequest }), z.strictObject({ valid: z.boolean() }), (engine, token, args) =>
    engine.crypto.verifyMac(token, args.ttag, args.request),
  ),
  rewrap: op(z.strictObject({ ttag, request: decryptRequest }), encryptResult, (engine, token, args) =>
    engine.crypto.rewrap(token, args.ttag, args.request),
  ),
  /** One operation on up to MAX_BATCH_ITEMS items, in one call; each item's failure is its outcome. */
  cryptoBatch: op(z.strictObject({ operation: batchOperation, items: batchItems }), batchOutcomes, (engine, token, args) =>
    runCryptoBatch(engine, token, args.operation, args.items),
  ),
  // Principals, sender keys, groups and roles (21-34).
  listPrincipals: op(principalQuery, list(principalView), (engine, token, args) => engine.principals.list(token, args)),
  createPrincipal: op(newPrincipal, principalView, (engine, token, args) => engine.principals.create(token, args)),
  readPrincipal: op(z.strictObject({ name }), principalView, (engine, token, args) => engine.principals.read(token, args.name)),
  updatePrincipal: op(z.strictObject({ name, changes: principalChanges }), principalView, (engine, token, args) =>
    engine.principals.update(token, args.name, args.changes),
  ),
  deletePrincipal: op(
    z.strictObject({ name }),
    z.null(),
    async (engine, token, args) => (await engine.principals.remove(token, args.name), null),
  ),
  setPassword: op(
    z.strictObject({ name, verifier, currentProof: ruled(z.string().max(512)).optional() }),
    z.null(),
    async (engine, token, args) => (await engine.principals.setPassword(token, args.name, args.verifier, args.currentProof), null),
  ),
  principalGroups: op(z.strictObject({ name }), list(principalView), (engine, token, args) => engine.principals.groups(token, args.name)),
  putSenderKey: op(
    z.strictObject({ principal: name, jwk: ruledJson(z.record(z.string(), z.unknown())) }),
    z.strictObject({ jkt: z.string() }),
    (engine, token, args) => engine.identity.putSenderKey(token, args.principal, args.jwk),
  ),
  groupMembers: op(z.strictObject({ group: name }), list(principalView), (engine, token, args) => engine.groups.members(token, args.group)),
  addGroupMember: op(
    z.strictObject({ group: name, member: name }),
    z.null(),
    async (engine, token, args) => (await engine.groups.addMember(token, args.group, args.member), null),
  ),
  removeGroupMember: op(
    z.strictObject({ group: name, member: name }),
    z.null(),
    async (engine, token, args) => (await engine.groups.removeMember(token, args.group, args.member), null),
  ),
  listRoles: op(none, list(role), (engine, token) => engine.roles.list(token)),
  readRole: op(z.strictObject({ name }), role, (engine, token, args) => engine.roles.read(token, args.name)),
  putRole: op(z.strictObject({ name, operations: z.array(ruled(z.string().max(128))).max(256) }), role, (engine, token, args) =>
    engine.roles.put(token, args.name, args.operations),
  ),
  // Certificates and certificate trust (35-42).
  listCertificates: op(certificateQuery, list(certificate), (engine, token, args) => engine.certificates.list(token, args)),
  readCertificate: op(z.strictObject({ id: certificateId }), certificate, (engine, token, args) =>
    engine.certificates.read(token, args.id),
  ),
  parseCertificate: op(z.strictObject({ pem }), certificate, (engine, token, args) => engine.certificates.parse(token, args.pem)),
  verifyCertificate: op(z.strictObject({ pem }), verdict, (engine, token, args) => engine.certificates.verify(token, args.pem)),
  listTrustAuthorities: op(none, list(certificate), (engine, token) => engine.certificates.authorities(token)),
  addTrustAuthority: op(z.strictObject({ pem }), certificate, (engine, token, args) => engine.identity.addAuthority(token, args.pem)),
  removeTrustAuthority: op(
    z.strictObject({ id: certificateId }),
    z.null(),
    async (engine, token, args) => (await engine.certificates.removeAuthority(token, args.id), null),
  ),
  enrollCertificate: op(z.strictObject({ principal: name, pem }), certificate, (engine, token, args) =>
    engine.identity.enroll(token, args.principal, args.pem),
  ),
  // Server administration and the provisioning policy (43-48).
  serverVersion: op(none, z.strictObject({ keyServer: z.string().max(256) }), (engine, token) => engine.server.version(token)),
  serverConfig: op(none, z.record(z.string(), z.unknown()), (engine, token) => engine.server.config(token)),
  listParameters: op(none, list(parameter), (engine, token) => engine.server.parameters(token)),
  setParameter: op(z.strictObject({ name, value: parameterValue }), parameter, (engine, token, args) =>
    engine.server.setParameter(token, args.name, args.value),
  ),
  readPolicy: op(none, policy, (engine, token) => engine.identity.readPolicy(token)),
  setPolicy: op(z.strictObject({ name, value: ruledJson(z.unknown()) }), policy, (engine, token, args) =>
    engine.identity.setPolicy(token, args.name, args.value),
  ),
} as const;

export type OperationName = keyof typeof OPERATIONS;
export type OperationArgs<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['args']>;
export type OperationResult<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['result']>;

export function isOperationName(value: string): value is OperationName {
  return Object.hasOwn(OPERATIONS, value);
}

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
  const run = OPERATIONS[name].run as (engine: KeyServerEngine, token: string, args: OperationArgs<N>) => Promise<unknown>;
  return (await engine.atomically(() => run(engine, token, args))) as OperationResult<N>;
}
