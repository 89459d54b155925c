import { z } from 'zod';
import { conditionContext, grantConditions } from './grant-conditions.js';
import { KEY_LENGTHS } from './key-length.js';
import { KEY_TYPES, SIGNING_ALGS } from './key-type.js';
import {
  aliasView,
  base64,
  batchItems,
  batchOperation,
  batchOutcomes,
  bytes,
  certificate,
  certificateQuery,
  cursor,
  decryptRequest,
  encryptionContext,
  encryptRequest,
  encryptResult,
  heldOperations,
  idempotencyClaim,
  identity,
  keyed,
  keyListQuery,
  keySummary,
  keyVersion,
  keyVersionView,
  keyView,
  list,
  macResult,
  mintedToken,
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
  publicJwk,
  rights,
  role,
  ruled,
  ruledJson,
  signRequest,
  signResult,
  ttag,
  verdict,
  verifier,
  verifyMacRequest,
  verifySignatureRequest,
  verifySignatureResult,
} from './keyserver-values.js';
import { issuerName, workloadIssuer } from './workload-issuer.js';

/** One operation of the key-server protocol: what it takes and what it answers. */
export interface OperationSchemas<A extends z.ZodType, R extends z.ZodType> {
  readonly args: A;
  readonly result: R;
}

function op<A extends z.ZodType, R extends z.ZodType>(args: A, result: R): OperationSchemas<A, R> {
  return { args, result };
}

const none = z.strictObject({});
/** A key's ACL revision (docs/spec.md §4.1 item 3): what a grant or revoke produced, what a read shows now. */
const aclRevision = z.number().int().nonnegative();
const certificateId = ruled(z.string().min(1).max(128));
/**
 * A key wrapped to a client's ephemeral key, ciphertext only, standard base64: to a P-256 point
 * (docs/spec.md §3.2), or with HPKE to an X-Wing public key (docs/spec.md §3.4 item 2).
 */
const wrappedKey = z.union([
  z.strictObject({ gatewayPubKey: base64, salt: base64, iv: base64, ciphertext: base64, authTag: base64 }),
  z.strictObject({ algo: z.literal('hpke-xwing-hkdf-sha256-aes-256-gcm'), enc: base64, ciphertext: base64 }),
]);
const dataKeyLength = z.literal(KEY_LENGTHS);
const version = z.number().int().positive();
/** A data key made (docs/spec.md §4.5a item 1), singly or as a batch item's result. */
const dataKeyMade = z.strictObject({ blob: bytes, wrapped: wrappedKey.optional(), keyLen: dataKeyLength, version });
/** A data key's blob opened and wrapped again (docs/spec.md §4.5a item 2), singly or as a batch item's result. */
const dataKeyOpened = z.strictObject({ wrapped: wrappedKey, keyLen: dataKeyLength, version });
/** A tag's name or value as the wire carries it; the key server applies the tag rules (src/wire/key-tags.ts). */
const tagText = ruled(z.string().max(1024));

/**
 * THE declaration of a key-server operation (docs/keyserver-protocol.md "Operations"): its name, the
 * schema of its arguments and the schema of its result. A token holder calls it as
 * `POST /v1/op/<name>`, arguments in the body, `{ result }` in the answer. Everything else is derived
 * from this table: the gateway's port (`KeyServerConnection.call`, src/ports/key-server.port.ts) takes
 * `OperationArgs<N>` and answers `OperationResult<N>`; the daemon parses arguments with `args`; the
 * gateway's TLS adapter checks replies with `result`; the key server binds each name to its engine
 * function (src/keyserver/protocol/protocol-operations.ts, a missing binding does not compile).
 *
 * Arguments and results are the schemas' output: binary values of data cryptography and export are
 * bytes (keyserver-values.ts `bytes`), which `toWire` turns to base64 only where a wire carries them.
 * The byte arrays an operation answers are fresh and belong to its caller, who zeroes them once used:
 * the gateway after the export wrap or the HTTP answer, the daemon once it encoded its answer.
 */
export const KEY_SERVER_OPERATIONS = {
  whoami: op(none, identity),
  /** The caller's operations (its roles and its groups' roles), and whether its token is scoped. */
  heldOperations: op(none, heldOperations),
  /** Invalidates the caller's token (a logout). */
  revokeToken: op(none, z.null()),
  /** A token narrowed to the listed keys and rights, lasting `ttlMs` at most. */
  mintScoped: op(
    z.strictObject({ objects: z.array(ttag).min(1).max(100), rights: rights.optional(), ttlMs: z.number().int().positive() }),
    z.strictObject({ ...mintedToken, scope: z.record(z.string(), rights) }),
  ),
  /** A token acting as a principal named, or identified by a trusted certificate. */
  mintDelegated: op(
    z.union([z.strictObject({ principal: name }), z.strictObject({ certificate: pem })]),
    z.strictObject({ ...mintedToken, actingFor: z.string() }),
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
  ),
  /** Undoes the caller's own creation (expired; its idempotency record under `idempotencyKey` forgotten), unless a replay holds it. */
  withdrawKey: op(z.strictObject({ ttag, idempotencyKey: z.string().min(1).max(255).optional() }), z.null()),
  readKey: op(z.strictObject({ ttag }), keyView),
  /** A page of the key's versions, newest first (docs/spec.md §4.22 item 10). */
  keyVersions: op(z.strictObject({ ttag, limit: z.number().int(), cursor: cursor.optional() }), keyed(list(keyVersionView))),
  expireKey: op(z.strictObject({ ttag }), keyView),
  /** A page of the keys the caller may see, newest first, filtered (docs/spec.md §4.23 item 1); one store read. */
  listKeys: op(keyListQuery, list(keySummary)),
  /** Sets one tag of the key, replacing its value (docs/spec.md §4.23 item 2): the owner or right `tag`. */
  putKeyTag: op(z.strictObject({ ttag, name: tagText, value: tagText }), keyed(z.strictObject({ name: z.string(), value: z.string() }))),
  /** The key's tags as stored, name to value, for whoever may change them: a tag write's read-back (docs/spec.md §4.1 item 3). */
  keyTags: op(z.strictObject({ ttag }), z.record(z.string(), z.string())),
  /** Deletes one tag of the key; a tag it does not carry changes nothing (docs/spec.md §4.23 item 2). */
  deleteKeyTag: op(z.strictObject({ ttag, name: tagText }), keyed(z.strictObject({}))),
  /** Disables or enables the key (docs/spec.md §4.6): the owner's; answers the key view. */
  disableKey: op(z.strictObject({ ttag }), keyView),
  enableKey: op(z.strictObject({ ttag }), keyView),
  /**
   * Schedules the key's deletion in `pendingDays` days (docs/spec.md §4.23 item 5; the key server's
   * bounds, its maximum by default), or cancels it (the key comes back disabled): the owner's.
   */
  scheduleKeyDeletion: op(z.strictObject({ ttag, pendingDays: z.number().int().optional() }), keyView),
  cancelKeyDeletion: op(z.strictObject({ ttag }), keyView),
  /**
   * A gateway's own calls (no token: docs/keyserver-protocol.md "Gateway calls"): claims up to 100
   * destructions whose audit record is not stored yet, each for 5 minutes, and confirms one once its
   * record is stored (docs/spec.md §4.23 item 5 "Its audit record"). `deletedAt` is ms since the epoch.
   */
  claimKeyDestructions: op(
    none,
    z.strictObject({
      items: z
        .array(z.strictObject({ ttag: z.string().min(1).max(1024), deletedAt: z.number().int().nonnegative() }))
        .max(100)
        .readonly(),
    }),
  ),
  confirmKeyDestruction: op(z.strictObject({ ttag }), z.null()),
  // Key versions: rotation adds one, the minimum version retires those below it.
  rotateKey: op(z.strictObject({ ttag, idempotency: idempotencyClaim.optional() }), keyView),
  setMinVersion: op(z.strictObject({ ttag, minVersion: keyVersion }), keyView),
  // A signing key's published JWKS (docs/spec.md §4.25 item 7): the owner's switch, and the gateway's own
  // call (no token) for the key set it serves without a session, by ttag or `alias/{name}` (at most one JWK per
  // version, 10 000 the most versions a key server allows).
  setPublished: op(z.strictObject({ ttag, published: z.boolean() }), keyView),
  publishedJwks: op(z.strictObject({ ttag }), z.strictObject({ keys: z.array(z.record(z.string(), z.string())).max(10_000).readonly() })),
  // The key as bytes, a copy its receiver zeroes once used (the daemon once its answer is encoded): an aes
  // key's raw bytes, or an exportable signing key's PKCS#8 with its `type` (docs/spec.md §4.25 item 1);
  // `aesOnly` refuses every signing key (the root surface's export, docs/spec.md §2.5).
  exportKey: op(
    z.strictObject({ ttag, version: keyVersion.optional(), aesOnly: z.literal(true).optional() }),
    keyed(
      z.strictObject({
        nid: z.number().int(),
        key: bytes,
        version: z.number().int().positive(),
        type: z.enum(KEY_TYPES).exclude(['aes']).optional(),
      }),
    ),
  ),
  readAcl: op(
    z.strictObject({ ttag }),
    keyed(
      z.strictObject({
        owner: identity,
        entries: z
          .array(z.strictObject({ principal: identity, rights, conditions: grantConditions.optional() }))
          .max(10_000)
          .readonly(),
        revision: aclRevision,
      }),
    ),
  ),
  /** `conditions` replaces the entry's with the rights; absent, the entry has none (docs/spec.md §4.5b item 4). */
  grant: op(
    z.strictObject({ ttag, principal: name, rights, conditions: grantConditions.optional() }),
    keyed(z.strictObject({ grantee: identity, revision: aclRevision })),
  ),
  revoke: op(z.strictObject({ ttag, principal: name }), keyed(z.strictObject({ revision: aclRevision }))),
  /**
   * The caller's rights; an object when there is more to say: the resolved ttag when the request named
   * the key by alias, `conditional` when the caller's entries include conditioned ones
   * (docs/spec.md §4.5b item 4; one per entry, at most the caller's own and its groups').
   */
  accessRights: op(
    z.strictObject({ ttag }),
    z.union([
      rights,
      z.strictObject({
        rights,
        resolved: ttag.optional(),
        conditional: z
          .array(z.strictObject({ rights, context: conditionContext }))
          .max(10_000)
          .optional(),
      }),
    ]),
  ),
  // Data cryptography (9-12). `resolved`: the key an alias named (docs/spec.md §4.23 item 3).
  encrypt: op(z.strictObject({ ttag, request: encryptRequest }), keyed(encryptResult)),
  decrypt: op(z.strictObject({ ttag, request: decryptRequest }), keyed(z.strictObject({ plaintext: payloadBytes }))),
  mac: op(z.strictObject({ ttag, data: payloadBytes }), keyed(macResult)),
  verifyMac: op(z.strictObject({ ttag, request: verifyMacRequest }), keyed(z.strictObject({ valid: z.boolean() }))),
  rewrap: op(z.strictObject({ ttag, request: decryptRequest }), keyed(encryptResult)),
  /**
   * A fresh data key (docs/spec.md §4.5a): `blob` sealed under the key's newest version, `wrapped` to
   * `clientPubKey` (a 65-byte P-256 point or a 1,216-byte X-Wing public key, docs/spec.md §3.4) only
   * when one is given. The data key itself never leaves.
   * `context` is bound in the blob (docs/spec.md §4.5b item 3): opening needs the same one.
   */
  generateDataKey: op(
    z.strictObject({ ttag, keyLen: dataKeyLength, clientPubKey: bytes.optional(), context: encryptionContext.optional() }),
    keyed(dataKeyMade),
  ),
  /** The data key of a blob, wrapped again to `clientPubKey` (docs/spec.md §4.5a item 2). */
  openDataKey: op(z.strictObject({ ttag, blob: bytes, clientPubKey: bytes, context: encryptionContext.optional() }), keyed(dataKeyOpened)),
  // Signing keys (docs/spec.md §4.25): the private key never leaves; `type` is the key's, for the record.
  /** A signature by the newest version of `message` or of its `digest`. */
  sign: op(z.strictObject({ ttag, request: signRequest }), keyed(signResult)),
  /** Whether `signature` verifies, by the version `version` or `kid` names, else by any not retired. */
  verifySignature: op(z.strictObject({ ttag, request: verifySignatureRequest }), keyed(verifySignatureResult)),
  /** A compact JWS of `claims` under the key's alg and newest version, made with jose in the key server. */
  signJwt: op(
    z.strictObject({
      ttag,
      claims: ruledJson(z.record(z.string(), z.unknown())),
      header: ruledJson(z.record(z.string(), z.unknown())).optional(),
    }),
    keyed(
      z.strictObject({
        jwt: z.string().max(200_000),
        alg: z.enum(SIGNING_ALGS),
        version,
        kid: z.string().max(256),
        type: z.enum(KEY_TYPES),
      }),
    ),
  ),
  /** A version's public key (the newest by default, retired ones too) as PEM (SPKI) and JWK. */
  publicKey: op(
    z.strictObject({ ttag, version: keyVersion.optional() }),
    keyed(
      z.strictObject({
        ttag: z.string(),
        type: z.enum(KEY_TYPES),
        alg: z.enum(SIGNING_ALGS),
        version,
        kid: z.string().max(256),
        pem: z.string().max(8192),
        jwk: publicJwk,
      }),
    ),
  ),
  /** The JWK of every version not retired, newest first. */
  keyJwks: op(
    z.strictObject({ ttag }),
    keyed(z.strictObject({ keys: z.array(publicJwk).max(10_000).readonly(), type: z.enum(KEY_TYPES), alg: z.enum(SIGNING_ALGS) })),
  ),
  // Aliases (docs/spec.md §4.23 item 3): `ttag` a ttag, never an alias; the list by alias, paged.
  putAlias: op(z.strictObject({ alias: name, ttag }), aliasView),
  /** Answers the ttag the alias named, for the record. */
  deleteAlias: op(z.strictObject({ alias: name }), z.strictObject({ ttag })),
  listAliases: op(
    z.strictObject({ ttag: ttag.optional(), prefix: name.optional(), limit: z.number().int(), cursor: cursor.optional() }),
    list(aliasView),
  ),
  /** One operation on up to MAX_BATCH_ITEMS items, in one call; each item's failure is its outcome. */
  cryptoBatch: op(z.strictObject({ operation: batchOperation, items: batchItems }), batchOutcomes(dataKeyMade, dataKeyOpened)),
  // Principals, sender keys, groups and roles (21-34).
  listPrincipals: op(principalQuery, list(principalView)),
  createPrincipal: op(newPrincipal, principalView),
  readPrincipal: op(z.strictObject({ name }), principalView),
  updatePrincipal: op(z.strictObject({ name, changes: principalChanges }), principalView),
  deletePrincipal: op(z.strictObject({ name }), z.null()),
  setPassword: op(z.strictObject({ name, verifier, currentProof: ruled(z.string().max(512)).optional() }), z.null()),
  principalGroups: op(z.strictObject({ name }), list(principalView)),
  putSenderKey: op(
    z.strictObject({ principal: name, jwk: ruledJson(z.record(z.string(), z.unknown())) }),
    z.strictObject({ jkt: z.string() }),
  ),
  /** A page of the groups by name (docs/spec.md §4.9 item 1); the key server checks `limit` (1..GROUPS_LIMIT_MAX). */
  listGroups: op(z.strictObject({ limit: z.number().int(), cursor: cursor.optional() }), list(principalView)),
  groupMembers: op(z.strictObject({ group: name }), list(principalView)),
  addGroupMember: op(z.strictObject({ group: name, member: name }), z.null()),
  removeGroupMember: op(z.strictObject({ group: name, member: name }), z.null()),
  listRoles: op(none, list(role)),
  readRole: op(z.strictObject({ name }), role),
  putRole: op(z.strictObject({ name, operations: z.array(ruled(z.string().max(128))).max(256) }), role),
  // Certificates and certificate trust (35-42).
  listCertificates: op(certificateQuery, list(certificate)),
  readCertificate: op(z.strictObject({ id: certificateId }), certificate),
  parseCertificate: op(z.strictObject({ pem }), certificate),
  verifyCertificate: op(z.strictObject({ pem }), verdict),
  listTrustAuthorities: op(none, list(certificate)),
  addTrustAuthority: op(z.strictObject({ pem }), certificate),
  removeTrustAuthority: op(z.strictObject({ id: certificateId }), z.null()),
  enrollCertificate: op(z.strictObject({ principal: name, pem }), certificate),
  // Server administration and the provisioning policy (43-48).
  serverVersion: op(none, z.strictObject({ keyServer: z.string().max(256) })),
  /** The key server's configuration, secrets redacted. */
  serverConfig: op(none, z.record(z.string(), z.unknown())),
  listParameters: op(none, list(parameter)),
  setParameter: op(z.strictObject({ name, value: parameterValue }), parameter),
  readPolicy: op(none, policy),
  setPolicy: op(z.strictObject({ name, value: ruledJson(z.unknown()) }), policy),
  // Trusted issuers of workload identity tokens (docs/spec.md §4.24 item 1). `settings` is checked by the engine.
  listIssuers: op(none, list(workloadIssuer)),
  readIssuer: op(z.strictObject({ name: issuerName }), workloadIssuer),
  putIssuer: op(z.strictObject({ name: issuerName, settings: ruledJson(z.record(z.string(), z.unknown())) }), workloadIssuer),
  deleteIssuer: op(z.strictObject({ name: issuerName }), z.null()),
} as const;

export type OperationName = keyof typeof KEY_SERVER_OPERATIONS;
/** An operation's arguments, as its schema outputs them (bytes, not base64). */
export type OperationArgs<N extends OperationName> = z.output<(typeof KEY_SERVER_OPERATIONS)[N]['args']>;
/** An operation's result, as its schema outputs them (bytes, not base64; `null` where the wire says so). */
export type OperationResult<N extends OperationName> = z.output<(typeof KEY_SERVER_OPERATIONS)[N]['result']>;

export function isOperationName(value: string): value is OperationName {
  return Object.hasOwn(KEY_SERVER_OPERATIONS, value);
}
