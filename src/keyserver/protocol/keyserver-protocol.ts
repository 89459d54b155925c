import { z } from 'zod';
import {
  base64,
  bearerToken,
  certificate,
  certificateQuery,
  decryptRequest,
  encryptRequest,
  encryptResult,
  heldOperations,
  identity,
  keyView,
  list,
  name,
  newKey,
  newPrincipal,
  parameter,
  parameterValue,
  payload,
  pem,
  policy,
  principalChanges,
  principalQuery,
  principalView,
  rights,
  role,
  ttag,
  verdict,
  verifier,
} from './protocol-values.js';

export { BEARER_TOKEN } from './protocol-values.js';

/**
 * The wire protocol between the gateway's `tls` key-server adapter and the key-server daemon: JSON
 * over HTTPS (TLS 1.3), paths under a version prefix. docs/keyserver-protocol.md describes it; the
 * schemas here are that description, shared by the daemon (requests) and the adapter (replies).
 * Binary values travel as standard base64.
 */
export const PROTOCOL_PREFIX = '/v1';
export const PATHS = {
  health: `${PROTOCOL_PREFIX}/health`,
  loginBegin: `${PROTOCOL_PREFIX}/login/begin`,
  loginFinish: `${PROTOCOL_PREFIX}/login/finish`,
  certificateChallenge: `${PROTOCOL_PREFIX}/certificate/challenge`,
  certificateLogin: `${PROTOCOL_PREFIX}/certificate/login`,
  operation: (name: string) => `${PROTOCOL_PREFIX}/op/${name}`,
} as const;

/**
 * The daemon refuses a request body larger than this (413); the adapter refuses a reply larger than
 * REPLY_BODY_LIMIT_BYTES. Both leave room for the largest payload (1 MiB of base64) and its JSON.
 */
export const REQUEST_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
export const REPLY_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

export const healthReply = z.object({ ok: z.literal(true), protocol: z.number().int() });

/** SRP-6a step 1: the client's public value A; the server answers its salt and B. */
export const loginBegin = {
  request: z.strictObject({ user: name, A: base64 }),
  reply: z.strictObject({ handle: z.string().min(1).max(128), salt: base64, B: base64 }),
};

/** SRP-6a step 2: the client's proof M1; the server answers its proof M2 and a token. */
export const loginFinish = {
  request: z.strictObject({ handle: z.string().min(1).max(128), M1: base64 }),
  reply: z.strictObject({ M2: base64, token: bearerToken, identity, expiresAt: z.number().int().nullable() }),
};

const minted = {
  token: bearerToken,
  identity,
  expiresAt: z.number().int().nullable(),
};

/** Certificate login, first leg: the certificate; the server answers a single-use challenge. */
export const certificateChallenge = {
  request: z.strictObject({ certificate: pem }),
  reply: z.strictObject({ challengeId: z.string().min(1).max(128), challenge: z.string().min(1).max(128), expiresAt: z.number().int() }),
};

/** Certificate login, second leg: the signature over the challenge; a token when it verifies. */
export const certificateLogin = {
  request: z.strictObject({ challengeId: z.string().min(1).max(128), signature: base64 }),
  reply: z.strictObject({ ...minted, jkt: z.string().nullable() }),
};

const none = z.strictObject({});
const certificateId = z.string().min(1).max(128);

/**
 * The engine operations a token holder may call as `POST /v1/op/<name>`: arguments in the body,
 * `{ result }` in the answer. A new operation is one entry here, one handler in the daemon's table
 * (a missing one is a compile error) and one method in the adapter. One entry per KeyServerConnection
 * method (src/ports/key-server.port.ts), named alike, except `signOut`, which is `revokeToken`.
 */
export const OPERATIONS = {
  whoami: { args: none, result: identity },
  /** The caller's operations (its roles and its groups' roles), and whether its token is scoped. */
  heldOperations: { args: none, result: heldOperations },
  revokeToken: { args: none, result: z.null() },
  mintScoped: {
    args: z.strictObject({ objects: z.array(ttag).min(1).max(100), rights: rights.optional(), ttlMs: z.number().int().positive() }),
    result: z.strictObject({ ...minted, scope: z.record(z.string(), rights) }),
  },
  mintDelegated: {
    args: z.union([z.strictObject({ principal: name }), z.strictObject({ certificate: pem })]),
    result: z.strictObject({ ...minted, actingFor: z.string() }),
  },
  // Keys and key ACLs (api-surface.md 13-20).
  generateKey: { args: newKey, result: z.strictObject({ ttag: z.string().min(1).max(1024) }) },
  readKey: { args: z.strictObject({ ttag }), result: keyView },
  expireKey: { args: z.strictObject({ ttag }), result: keyView },
  exportKey: { args: z.strictObject({ ttag }), result: z.strictObject({ nid: z.number().int(), key: base64 }) },
  readAcl: {
    args: z.strictObject({ ttag }),
    result: z.strictObject({
      owner: identity,
      entries: z
        .array(z.strictObject({ principal: identity, rights }))
        .max(10_000)
        .readonly(),
    }),
  },
  grant: { args: z.strictObject({ ttag, principal: name, rights }), result: identity },
  revoke: { args: z.strictObject({ ttag, principal: name }), result: z.null() },
  accessRights: { args: z.strictObject({ ttag }), result: rights },
  // Data cryptography (9-12).
  encrypt: { args: z.strictObject({ ttag, request: encryptRequest }), result: encryptResult },
  decrypt: { args: z.strictObject({ ttag, request: decryptRequest }), result: z.strictObject({ plaintext: payload }) },
  mac: { args: z.strictObject({ ttag, data: payload }), result: z.strictObject({ mac: base64, alg: z.literal('HS256') }) },
  verifyMac: { args: z.strictObject({ ttag, data: payload, mac: base64 }), result: z.strictObject({ valid: z.boolean() }) },
  // Principals, sender keys, groups and roles (21-34).
  listPrincipals: { args: principalQuery, result: list(principalView) },
  createPrincipal: { args: newPrincipal, result: principalView },
  readPrincipal: { args: z.strictObject({ name }), result: principalView },
  updatePrincipal: { args: z.strictObject({ name, changes: principalChanges }), result: principalView },
  deletePrincipal: { args: z.strictObject({ name }), result: z.null() },
  setPassword: { args: z.strictObject({ name, verifier }), result: z.null() },
  principalGroups: { args: z.strictObject({ name }), result: list(principalView) },
  putSenderKey: { args: z.strictObject({ principal: name, jwk: z.record(z.string(), z.unknown()) }), result: z.strictObject({ jkt: z.string() }) },
  groupMembers: { args: z.strictObject({ group: name }), result: list(principalView) },
  addGroupMember: { args: z.strictObject({ group: name, member: name }), result: z.null() },
  removeGroupMember: { args: z.strictObject({ group: name, member: name }), result: z.null() },
  listRoles: { args: none, result: list(role) },
  readRole: { args: z.strictObject({ name }), result: role },
  putRole: { args: z.strictObject({ name, operations: z.array(z.string().max(128)).max(256) }), result: role },
  // Certificates and certificate trust (35-42).
  listCertificates: { args: certificateQuery, result: list(certificate) },
  readCertificate: { args: z.strictObject({ id: certificateId }), result: certificate },
  parseCertificate: { args: z.strictObject({ pem }), result: certificate },
  verifyCertificate: { args: z.strictObject({ pem }), result: verdict },
  listTrustAuthorities: { args: none, result: list(certificate) },
  addTrustAuthority: { args: z.strictObject({ pem }), result: certificate },
  removeTrustAuthority: { args: z.strictObject({ id: certificateId }), result: z.null() },
  enrollCertificate: { args: z.strictObject({ principal: name, pem }), result: certificate },
  // Server administration and the provisioning policy (43-48).
  serverVersion: { args: none, result: z.strictObject({ keyServer: z.string().max(256) }) },
  serverConfig: { args: none, result: z.record(z.string(), z.unknown()) },
  listParameters: { args: none, result: list(parameter) },
  setParameter: { args: z.strictObject({ name, value: parameterValue }), result: parameter },
  readPolicy: { args: none, result: policy },
  setPolicy: { args: z.strictObject({ name, value: z.unknown() }), result: policy },
} as const;

export type OperationName = keyof typeof OPERATIONS;
export type OperationArgs<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['args']>;
export type OperationResult<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['result']>;

export function isOperationName(value: string): value is OperationName {
  return Object.hasOwn(OPERATIONS, value);
}

/**
 * Every error answer: a contract code (src/domain/errors/error-codes.ts), a human detail and, when the
 * refusal carries one (a CONFLICT), the reason a client may be shown.
 */
export const errorReply = z.object({
  code: z.string().min(1).max(64),
  detail: z.string().max(4096),
  reason: z.string().max(1024).optional(),
});
