import { z } from 'zod';
import { parseTtag } from '../../../domain/key/ttag.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { base64, keyVersion, ttag } from './api-schemas.js';
import { isBatch, runBatch, singleOrBatch } from './crypto-batch.js';
import { base64Of, bytes, decodeBinary, encodeBinary, wipeBinary } from './crypto-bytes.js';

const sealed = { ttag, ciphertext: base64, iv: base64, authTag: base64, aad: base64.optional(), version: keyVersion.optional() };
const single = {
  encrypt: z.strictObject({ ttag, plaintext: base64, aad: base64.optional() }),
  decrypt: z.strictObject(sealed),
  mac: z.strictObject({ ttag, data: base64 }),
  verify: z.strictObject({ ttag, data: base64, mac: base64, version: keyVersion.optional() }),
};
const schemas = {
  encrypt: singleOrBatch(single.encrypt),
  decrypt: singleOrBatch(single.decrypt),
  mac: singleOrBatch(single.mac),
  verify: singleOrBatch(single.verify),
  rewrap: singleOrBatch(single.decrypt),
};

/** A single answer, or a batch's (docs/spec.md §4.22 item 8). */
const either = (answer: z.ZodObject) => z.union([answer, responses.batch(answer)]);

/**
 * Data cryptography (docs/spec.md §4.5, §4.22): AES-GCM and HMAC-SHA256 under the raw key of a
 * version: encrypt and MAC under the newest, decrypt, MAC verify and rewrap by `version` (1 when
 * absent). Encrypting and computing or checking a MAC change nothing and release nothing the caller did
 * not send: they are recorded after the fact (`kind: 'read'`). Decryption releases plaintext, so
 * its record is begun first and the operation is refused without it; so is a rewrap's. Each takes
 * `{ items }` too, answered item by item with one record for the batch. Binary values are bytes from
 * here to the key server (crypto-bytes.ts); plaintext is zeroed once the answer is encoded.
 */
export function cryptoRoutes(services: GatewayServices): ApiRoute[] {
  const crypto = services.crypto;
  return [
    route({
      operationId: 'crypto.encrypt',
      kind: 'read',
      method: 'POST',
      path: '/api/crypto/encrypt',
      auth: 'session',
      summary: "AES-GCM under the key's newest version, 12-byte iv, 16-byte tag; right encrypt",
      body: schemas.encrypt,
      success: { status: 200, schema: either(responses.encrypted) },
      async handle(ctx, { body, audit }) {
        if (isBatch(body)) return runBatch(ctx, audit, crypto, 'encrypt', body.items);
        const request = decodeBinary({ plaintext: body.plaintext, aad: body.aad });
        try {
          const result = await crypto.encrypt(callerOf(ctx), parseTtag(body.ttag), request);
          audit.note({ version: result.version });
          ctx.body = encodeBinary(result);
        } finally {
          wipeBinary(request);
        }
      },
    }),
    route({
      operationId: 'crypto.decrypt',
      method: 'POST',
      path: '/api/crypto/decrypt',
      auth: 'session',
      summary: 'AES-GCM decryption by version (default 1); a bad tag is 400 DECRYPT_FAILED; right decrypt',
      body: schemas.decrypt,
      success: { status: 200, schema: either(responses.decrypted) },
      async handle(ctx, { body, audit }) {
        if (isBatch(body)) return runBatch(ctx, audit, crypto, 'decrypt', body.items);
        const { ttag: handle, ...request } = body;
        audit.note({ version: request.version ?? 1 });
        const { plaintext } = await crypto.decrypt(callerOf(ctx), parseTtag(handle), decodeBinary(request));
        try {
          ctx.body = { plaintext: base64Of(plaintext) };
        } finally {
          plaintext.fill(0);
        }
      },
    }),
    route({
      operationId: 'crypto.rewrap',
      method: 'POST',
      path: '/api/crypto/rewrap',
      auth: 'session',
      summary: 'Decrypt by version (default 1) and encrypt under the newest, inside the key server; rights decrypt and encrypt',
      body: schemas.rewrap,
      success: { status: 200, schema: either(responses.encrypted) },
      async handle(ctx, { body, audit }) {
        if (isBatch(body)) return runBatch(ctx, audit, crypto, 'rewrap', body.items);
        const { ttag: handle, ...request } = body;
        audit.note({ version: request.version ?? 1 });
        ctx.body = encodeBinary(await crypto.rewrap(callerOf(ctx), parseTtag(handle), decodeBinary(request)));
      },
    }),
    route({
      operationId: 'crypto.mac',
      kind: 'read',
      method: 'POST',
      path: '/api/crypto/mac',
      auth: 'session',
      summary: "HMAC-SHA256 under the key's newest version; right mac",
      body: schemas.mac,
      success: { status: 200, schema: either(responses.mac) },
      async handle(ctx, { body, audit }) {
        if (isBatch(body)) return runBatch(ctx, audit, crypto, 'mac', body.items);
        const result = await crypto.mac(callerOf(ctx), parseTtag(body.ttag), bytes(body.data));
        audit.note({ version: result.version });
        ctx.body = encodeBinary(result);
      },
    }),
    route({
      operationId: 'crypto.mac.verify',
      kind: 'read',
      method: 'POST',
      path: '/api/crypto/mac/verify',
      auth: 'session',
      summary: 'Check an HMAC-SHA256 by version (default 1) in constant time; right mac',
      body: schemas.verify,
      success: { status: 200, schema: either(responses.macValid) },
      async handle(ctx, { body, audit }) {
        if (isBatch(body)) return runBatch(ctx, audit, crypto, 'verify', body.items);
        const { ttag: handle, ...request } = body;
        audit.note({ version: request.version ?? 1 });
        ctx.body = await crypto.verifyMac(callerOf(ctx), parseTtag(handle), decodeBinary(request));
      },
    }),
  ];
}
