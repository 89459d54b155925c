import { z } from 'zod';
import { base64, bearerToken, identity, mintedToken, name, pem, ruled } from '../../wire/keyserver-values.js';

export { BEARER_TOKEN } from '../../wire/keyserver-values.js';

/**
 * The wire protocol between the gateway's `tls` key-server adapter and the key-server daemon: JSON
 * over TLS 1.3 (HTTP/1.1 or the framed transport), paths under a version prefix.
 * docs/keyserver-protocol.md describes it; the schemas here are that description, shared by the
 * daemon (requests) and the adapter (replies).
 * Binary values travel as standard base64.
 */
export const PROTOCOL_PREFIX = '/v1';
export const PATHS = {
  health: `${PROTOCOL_PREFIX}/health`,
  loginBegin: `${PROTOCOL_PREFIX}/login/begin`,
  loginFinish: `${PROTOCOL_PREFIX}/login/finish`,
  certificateChallenge: `${PROTOCOL_PREFIX}/certificate/challenge`,
  certificateLogin: `${PROTOCOL_PREFIX}/certificate/login`,
  workloadLogin: `${PROTOCOL_PREFIX}/workload/login`,
  operation: (name: string) => `${PROTOCOL_PREFIX}/op/${name}`,
} as const;

/**
 * The daemon refuses a request body larger than this (413); the adapter refuses a reply larger than
 * REPLY_BODY_LIMIT_BYTES. Both leave room for the largest payload (1 MiB of base64) and its JSON.
 */
export const REQUEST_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
export const REPLY_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * The two transports a daemon connection may choose by ALPN (docs/keyserver-protocol.md "Transport"):
 * the framed transport, one line of JSON each way per call, and HTTP/1.1. A client that offers
 * neither speaks HTTP/1.1.
 */
export const ALPN = { framed: 'keygate/1', http: 'http/1.1' } as const;

/** What ends a frame of the framed transport. JSON text never holds a raw line feed. */
export const FRAME_END = '\n';

/** One call on the framed transport: the fields of the HTTP/1.1 request it stands for. At most REQUEST_BODY_LIMIT_BYTES. */
export const frameRequest = z.strictObject({
  method: z.string().min(1).max(16),
  path: z.string().min(1).max(1024),
  authorization: z.string().max(1024).optional(),
  body: z.unknown().optional(),
});

/** The answer to one call on the framed transport: the status and body of the HTTP/1.1 answer. At most REPLY_BODY_LIMIT_BYTES. */
export const frameReply = z.strictObject({ status: z.number().int().min(100).max(599), body: z.unknown() });

export const healthReply = z.object({ ok: z.literal(true), protocol: z.number().int() });

/** SRP-6a step 1: the client's public value A; the server answers its salt and B. */
export const loginBegin = {
  request: z.strictObject({ user: name, A: base64 }),
  reply: z.strictObject({ handle: z.string().min(1).max(128), salt: base64, B: base64 }),
};

/** SRP-6a step 2: the client's proof M1; the server answers its proof M2 and a token. */
export const loginFinish = {
  request: z.strictObject({ handle: ruled(z.string().min(1).max(128)), M1: base64 }),
  reply: z.strictObject({ M2: base64, token: bearerToken, identity, expiresAt: z.number().int().nullable() }),
};

/** Certificate login, first leg: the certificate; the server answers a single-use challenge. */
export const certificateChallenge = {
  request: z.strictObject({ certificate: pem }),
  reply: z.strictObject({ challengeId: z.string().min(1).max(128), challenge: z.string().min(1).max(128), expiresAt: z.number().int() }),
};

/** Certificate login, second leg: the signature over the challenge; a token when it verifies. */
export const certificateLogin = {
  request: z.strictObject({ challengeId: ruled(z.string().min(1).max(128)), signature: base64 }),
  reply: z.strictObject({ ...mintedToken, jkt: z.string().nullable() }),
};

/**
 * Workload sign-in (docs/spec.md §4.24): the token, with the key set the gateway fetched from the
 * `jwksUri` it sends; a token for the workload's principal when it verifies, or, when the issuer
 * publishes its keys elsewhere than that (or the gateway sent none), where to fetch them (`keySource`).
 */
export const workloadLogin = {
  request: z.strictObject({
    issuer: ruled(z.string().min(1).max(64)).optional(),
    token: ruled(z.string().min(1).max(16_384)),
    jwksUri: ruled(z.string().max(512)).optional(),
    jwks: z.unknown().optional(),
    proofJkt: ruled(z.string().min(1).max(128)).optional(),
  }),
  reply: z.union([
    z.strictObject({
      ...mintedToken,
      issuer: z.string().min(1).max(64),
      subject: z.string().max(1024),
      jti: z.string().max(256).nullable(),
      requireJti: z.boolean(),
      usableUntil: z.number().int(),
      jwksUri: z.string().max(512).nullable(),
    }),
    z.strictObject({ keySource: z.strictObject({ issuer: z.string().min(1).max(64), jwksUri: z.string().min(1).max(512) }) }),
  ]),
};

/**
 * Every error answer: a code that travels (src/wire/error-codes.ts), a human detail and, when the
 * refusal carries one (a CONFLICT), the reason a client may be shown.
 */
export const errorReply = z.object({
  code: z.string().min(1).max(64),
  detail: z.string().max(4096),
  reason: z.string().max(1024).optional(),
});
