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
        ctx.body = await crypto.encrypt(callerOf(ctx), parseTtag(body.ttag), { plaintext: body.plaintext, aad: body.aad });
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
        const { ttag: handle, ...sealed } = body;
        ctx.body = await crypto.decrypt(callerOf(ctx), parseTtag(handle), sealed);
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
        ctx.body = await crypto.mac(callerOf(ctx), parseTtag(body.ttag), body.data);
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
        ctx.body = await crypto.verifyMac(callerOf(ctx), parseTtag(body.ttag), body.data, body.mac);
      },
    }),
  ];
}
