import { z } from 'zod';
import { readKeyReference } from '../../../domain/key/ttag.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { isStandardBase64 } from '../../../wire/base64.js';
import { SIGNING_ALGS } from '../../../wire/key-type.js';
import { obeyTextRule, textJson } from '../schema/text-schema.js';
import { keyReferenceField } from '../schema/ttag-schema.js';
import { callerOf } from './api-context.js';
import { type ApiRoute, route } from './api-route.js';
import { keyVersion, ttag } from './api-schemas.js';
import { runBatch, singleOrBatch } from './crypto-batch.js';
import { binary, encodeBinary, wipeBinary } from './crypto-bytes.js';
import { noteResolved, withoutResolved } from './key-reference.js';
import { signingResponses } from './signing-responses.js';

/**
 * A signature to check, as given: standard base64 of at most 1024 characters (the longest signature,
 * RSA-4096's, is 684), else no bytes at all, which verify nothing. A malformed signature is an
 * answer, `{ valid: false }`, never a refusal (docs/spec.md §4.25 item 4), and the request is still
 * authorized as any other. Text that breaks the text rule (docs/spec.md §1.6) is refused as in any field.
 */
const signature = z
  .string()
  .max(1_500_000)
  .superRefine(obeyTextRule())
  .transform(function signatureBytes(value): Uint8Array {
    return value.length <= 1024 && isStandardBase64(value) ? Buffer.from(value, 'base64') : new Uint8Array(0);
  });

const alg = z.enum(SIGNING_ALGS);
const kid = z
  .string()
  .max(256)
  .regex(/^[A-Za-z0-9_-]*$/, 'not a key id');
const signFields = { alg, message: binary.optional(), digest: binary.optional() };
const verifyFields = { ...signFields, signature, version: keyVersion.optional(), kid: kid.optional() };
const jsonObject = textJson(z.record(z.string(), z.unknown()));
/** A single request names its key as the surface reads it; a batch item's bad ttag fails that item alone (crypto-batch.ts). */
const signBody = singleOrBatch(
  z.strictObject({ ttag: keyReferenceField(ttag), ...signFields }),
  z.strictObject({ ttag: ttag.transform(readKeyReference), ...signFields }),
);
const verifyBody = singleOrBatch(
  z.strictObject({ ttag: keyReferenceField(ttag), ...verifyFields }),
  z.strictObject({ ttag: ttag.transform(readKeyReference), ...verifyFields }),
);

/** What the record names of a signing key's use (docs/spec.md §4.25 item 8), never the message, signature or claims. */
function aboutUse(answer: { type: string; alg: string; version?: number | undefined; kid?: string | undefined }) {
  return {
    keyType: answer.type,
    alg: answer.alg,
    ...(answer.version === undefined ? {} : { version: answer.version }),
    ...(answer.kid === undefined ? {} : { kid: answer.kid }),
  };
}

/** An answer as /api shows it: without the key type and `resolved`, which are the record's. */
function shown<T extends { type: string; resolved?: string }>(answer: T): Omit<T, 'type' | 'resolved'> {
  const { type: _type, resolved: _resolved, ...rest } = answer;
  return rest;
}

/**
 * Signing keys at work (docs/spec.md §4.25 items 3 to 6): sign and verify (single or `{ items }`),
 * sign-jwt, a version's public key and the key's JWKS. The private key stays in the key server; each
 * is recorded after the fact (`read`): it changes nothing and releases nothing secret.
 */
export function signingRoutes(services: GatewayServices): ApiRoute[] {
  const calls = services.keyServerCalls;
  return [
    route({
      operationId: 'crypto.sign',
      kind: 'read',
      method: 'POST',
      path: '/api/crypto/sign',
      auth: 'session',
      summary: "Sign a message or its digest with the key's newest version, in the key server; right sign",
      body: signBody,
      success: { status: 200, schema: z.union([signingResponses.signed, signingResponses.batch(signingResponses.signed)]) },
      async handle(ctx, { body, audit }) {
        if ('items' in body) return runBatch(ctx, audit, services.crypto, 'sign', body.items, (result) => shown(result as never));
        const { ttag: key, ...request } = body;
        try {
          const signed = await calls.call(callerOf(ctx), 'sign', { ttag: key, request });
          audit.note(aboutUse(signed));
          noteResolved(audit, key, signed.resolved);
          ctx.body = encodeBinary(shown(signed));
        } finally {
          wipeBinary(request);
        }
      },
    }),
    route({
      operationId: 'crypto.sign.verify',
      kind: 'read',
      method: 'POST',
      path: '/api/crypto/sign/verify',
      auth: 'session',
      summary: 'Check a signature by a version (version or kid) or by any version not retired; right read',
      body: verifyBody,
      success: { status: 200, schema: z.union([signingResponses.verified, signingResponses.batch(signingResponses.verified)]) },
      async handle(ctx, { body, audit }) {
        if ('items' in body) return runBatch(ctx, audit, services.crypto, 'sign.verify', body.items, (result) => shown(result as never));
        const { ttag: key, ...request } = body;
        const verified = await calls.call(callerOf(ctx), 'verifySignature', { ttag: key, request });
        audit.note(aboutUse({ ...verified, alg: request.alg, version: verified.version ?? request.version }));
        noteResolved(audit, key, verified.resolved);
        ctx.body = shown(verified);
      },
    }),
    route({
      operationId: 'crypto.sign-jwt',
      kind: 'read',
      method: 'POST',
      path: '/api/crypto/sign-jwt',
      auth: 'session',
      summary: "A compact JWS of the claims under the key's alg and newest version, made in the key server; right sign",
      body: z.strictObject({ ttag: keyReferenceField(ttag), claims: jsonObject, header: jsonObject.optional() }),
      success: { status: 200, schema: signingResponses.jwt },
      async handle(ctx, { body, audit }) {
        const signed = await calls.call(callerOf(ctx), 'signJwt', body);
        audit.note(aboutUse(signed));
        noteResolved(audit, body.ttag, signed.resolved);
        ctx.body = shown(signed);
      },
    }),
    route({
      operationId: 'keys.public-key',
      method: 'GET',
      path: '/api/keys/:ttag/public-key',
      auth: 'session',
      summary: 'A version of the signing key (default the newest, retired ones too) as PEM (SPKI) and JWK; right read',
      query: z.strictObject({ version: z.coerce.number().pipe(keyVersion).optional() }),
      success: { status: 200, schema: signingResponses.publicKey },
      async handle(ctx, { params, query, audit }) {
        const found = await calls.call(callerOf(ctx), 'publicKey', { ttag: params.ttag, version: query.version });
        audit.note(aboutUse(found));
        noteResolved(audit, params.ttag, found.resolved);
        ctx.body = withoutResolved(found);
      },
    }),
    route({
      operationId: 'keys.jwks',
      method: 'GET',
      path: '/api/keys/:ttag/jwks',
      auth: 'session',
      summary: 'The JWKS of the signing key: the JWK of every version not retired, newest first; right read',
      success: { status: 200, schema: signingResponses.jwks },
      async handle(ctx, { params, audit }) {
        const found = await calls.call(callerOf(ctx), 'keyJwks', { ttag: params.ttag });
        audit.note({ keyType: found.type, alg: found.alg });
        noteResolved(audit, params.ttag, found.resolved);
        ctx.body = { keys: found.keys };
      },
    }),
  ];
}
