import { z } from 'zod';
import { parseTtag } from '../../../domain/key/ttag.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { callerOf } from './api-context.js';
import { route, type ApiRoute } from './api-route.js';
import { responses } from './api-responses.js';
import { base64, ttag } from './api-schemas.js';

const schemas = {
  encrypt: z.strictObject({ ttag, plaintext: base64, aad: base64.optional() }),
  decrypt: z.strictObject({ ttag, ciphertext: base64, iv: base64, authTag: base64, aad: base64.optional() }),
  mac: z.strictObject({ ttag, data: base64 }),
  verify: z.strictObject({ ttag, data: base64, mac: base64 }),
};

/**
 * The bodies carry binary values as standard base64 (docs/spec.md §1.4, checked by the schemas); the
 * key server takes and gives bytes. The route owns the arrays it decodes and the plaintext it is
 * answered, and zeroes them once the answer is encoded.
 */
const bytes = (base64: string): Buffer => Buffer.from(base64, 'base64');
const optionalBytes = (base64: string | undefined): Buffer | undefined => (base64 === undefined ? undefined : bytes(base64));
const base64Of = (value: Uint8Array): string => Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');

/**
 * Data cryptography (docs/spec.md §4.5): AES-GCM and HMAC-SHA256 under the raw key.
 * Encrypting and computing or checking a MAC change nothing and release nothing the caller did not
 * send: they are recorded after the fact (`sensitive: false`). Decryption releases plaintext, so its
 * record is begun first and the operation is refused without it.
 */
export function cryptoRoutes(services: GatewayServices): ApiRoute[] {
  const crypto = services.crypto;
  return [
    route({
      operationId: 'crypto.encrypt',
      sensitive: false,
      method: 'POST',
      path: '/api/crypto/encrypt',
      auth: 'session',
      summary: "AES-GCM of the key's length, 12-byte iv, 16-byte tag; right encrypt",
      body: schemas.encrypt,
      success: { status: 200, schema: responses.encrypted },
      async handle(ctx, { body }) {
        const request = { plaintext: bytes(body.plaintext), aad: optionalBytes(body.aad) };
        try {
          const sealed = await crypto.encrypt(callerOf(ctx), parseTtag(body.ttag), request);
          ctx.body = { ciphertext: base64Of(sealed.ciphertext), iv: base64Of(sealed.iv), authTag: base64Of(sealed.authTag), alg: sealed.alg };
        } finally {
          request.plaintext.fill(0);
        }
      },
    }),
    route({
      operationId: 'crypto.decrypt',
      method: 'POST',
      path: '/api/crypto/decrypt',
      auth: 'session',
      summary: 'AES-GCM decryption; a bad tag is 400 DECRYPT_FAILED; right decrypt',
      body: schemas.decrypt,
      success: { status: 200, schema: responses.decrypted },
      async handle(ctx, { body }) {
        const sealed = { ciphertext: bytes(body.ciphertext), iv: bytes(body.iv), authTag: bytes(body.authTag), aad: optionalBytes(body.aad) };
        const { plaintext } = await crypto.decrypt(callerOf(ctx), parseTtag(body.ttag), sealed);
        try {
          ctx.body = { plaintext: base64Of(plaintext) };
        } finally {
          plaintext.fill(0);
        }
      },
    }),
    route({
      operationId: 'crypto.mac',
      sensitive: false,
      method: 'POST',
      path: '/api/crypto/mac',
      auth: 'session',
      summary: 'HMAC-SHA256 under the key; right mac',
      body: schemas.mac,
      success: { status: 200, schema: responses.mac },
      async handle(ctx, { body }) {
        const { mac, alg } = await crypto.mac(callerOf(ctx), parseTtag(body.ttag), bytes(body.data));
        ctx.body = { mac: base64Of(mac), alg };
      },
    }),
    route({
      operationId: 'crypto.mac.verify',
      sensitive: false,
      method: 'POST',
      path: '/api/crypto/mac/verify',
      auth: 'session',
      summary: 'Check an HMAC-SHA256 in constant time; right mac',
      body: schemas.verify,
      success: { status: 200, schema: responses.macValid },
      async handle(ctx, { body }) {
        ctx.body = await crypto.verifyMac(callerOf(ctx), parseTtag(body.ttag), bytes(body.data), bytes(body.mac));
      },
    }),
  ];
}
