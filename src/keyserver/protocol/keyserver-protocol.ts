import { z } from 'zod';
import { RIGHTS } from '../../domain/acl/acl.js';
import { KEY_LENGTHS } from '../../domain/keywrap/key-length.js';

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

/** The daemon refuses a request body larger than this (413). */
export const REQUEST_BODY_LIMIT_BYTES = 256 * 1024;

const base64 = z.base64().max(4096);
const name = z.string().min(1).max(256);
const ttag = z.string().min(1).max(1024);
/** RFC 6750 §2.1 b64token: what an `Authorization: Bearer` header may carry. */
export const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const bearerToken = z.string().max(512).regex(BEARER_TOKEN);
const rights = z.array(z.enum(RIGHTS)).max(RIGHTS.length);
const identity = z.strictObject({
  user: z.string(),
  systemId: z.number().int(),
  principalId: z.string().regex(/^[0-9a-f]{16}$/),
});

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

const pem = z.string().min(1).max(65_536);
const minted = {
  token: bearerToken,
  identity,
  expiresAt: z.number().int().nullable(),
};
const certificate = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{64}$/),
  subject: z.string(),
  issuer: z.string(),
  serial: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  keyAlg: z.string(),
  principal: z.string().optional(),
  pem: z.string(),
});
const policy = z.strictObject({
  autoProvision: z.boolean(),
  nameAttribute: z.enum(['CN', 'UID', 'emailAddress']),
  defaultRoles: z.array(z.string()),
  defaultGroups: z.array(z.string()),
});

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

/**
 * The engine operations a token holder may call as `POST /v1/op/<name>`: arguments in the body,
 * `{ result }` in the answer. A new operation is one entry here, one handler in the daemon's table
 * (a missing one is a compile error) and one method in the adapter.
 */
export const OPERATIONS = {
  whoami: { args: z.strictObject({}), result: identity },
  generateKey: { args: z.strictObject({ keyLen: z.literal(KEY_LENGTHS) }), result: z.strictObject({ ttag: z.string().min(1) }) },
  exportKey: { args: z.strictObject({ ttag }), result: z.strictObject({ nid: z.number().int(), key: base64 }) },
  readAcl: {
    args: z.strictObject({ ttag }),
    result: z.strictObject({ owner: identity, entries: z.array(z.strictObject({ principal: identity, rights })) }),
  },
  grant: { args: z.strictObject({ ttag, principal: name, rights }), result: identity },
  revoke: { args: z.strictObject({ ttag, principal: name }), result: z.null() },
  revokeToken: { args: z.strictObject({}), result: z.null() },
  mintScoped: {
    args: z.strictObject({ objects: z.array(ttag).min(1).max(100), rights: rights.optional(), ttlMs: z.number().int().positive() }),
    result: z.strictObject({ ...minted, scope: z.record(z.string(), rights) }),
  },
  mintDelegated: {
    args: z.union([z.strictObject({ principal: name }), z.strictObject({ certificate: pem })]),
    result: z.strictObject({ ...minted, actingFor: z.string() }),
  },
  addTrustAuthority: { args: z.strictObject({ pem }), result: certificate },
  enrollCertificate: { args: z.strictObject({ principal: name, pem }), result: certificate },
  putSenderKey: { args: z.strictObject({ principal: name, jwk: z.record(z.string(), z.unknown()) }), result: z.strictObject({ jkt: z.string() }) },
  readPolicy: { args: z.strictObject({}), result: policy },
  setPolicy: { args: z.strictObject({ name, value: z.unknown() }), result: policy },
} as const;

export type OperationName = keyof typeof OPERATIONS;
export type OperationArgs<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['args']>;
export type OperationResult<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['result']>;

export function isOperationName(value: string): value is OperationName {
  return Object.hasOwn(OPERATIONS, value);
}

/** Every error answer: a contract code (src/domain/errors/error-codes.ts) and a human detail. */
export const errorReply = z.object({ code: z.string().min(1).max(64), detail: z.string().max(4096) });
