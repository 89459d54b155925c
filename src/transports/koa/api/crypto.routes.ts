import { z } from 'zod';
import { readKeyReference } from '../../../domain/key/ttag.js';
import type { CryptoUseCases } from '../../../use-cases/crypto.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { Caller } from '../../../use-cases/session-context.js';
import type { Resolved } from '../../../wire/alias.js';
import type { BatchOperation, DecryptRequest, EncryptResult } from '../../../wire/crypto-messages.js';
import type { EncryptionContext } from '../../../wire/encryption-context.js';
import type { RouteKind } from '../audit/audit-scope.js';
import { encryptionContextField } from '../schema/context-schema.js';
import { keyReferenceField } from '../schema/ttag-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { base64, CLIENT_PUB_KEY_MAX_CHARS, keyVersion, ttag } from './api-schemas.js';
import { runBatch, singleOrBatch } from './crypto-batch.js';
import { binary, encodeBinary, wipeBinary } from './crypto-bytes.js';
import { noteResolved, withoutResolved } from './key-reference.js';
import { oneCiphertextForm, sealedText, withSealedText } from './sealed-text.js';

/**
 * One data-cryptography operation (docs/spec.md §4.5, §4.22), declared once: its route, its request's
 * fields beside `ttag` (binary ones as `binary`, decoded by the schema), its answer, its kind for the
 * record, where the record's key version comes from, and its use case. A route and its batch form
 * (`{ items }`, docs/spec.md §4.22 item 8) are made from it (`cryptoRoute`).
 */
interface CryptoOperation<S extends z.ZodRawShape, A extends object> {
  readonly batch: BatchOperation;
  readonly operationId: string;
  readonly path: string;
  readonly summary: string;
  readonly kind: RouteKind;
  readonly fields: S;
  /** Takes a ciphertext as `sealed` or as separate fields, exactly one form (docs/spec.md §4.5 "Sealed text"). */
  readonly eitherForm?: true;
  readonly answer: z.ZodObject;
  /** The version the record names: the one the request asks for (1 when absent) or the one answered. */
  readonly version: 'asked' | 'answered';
  /** Answers a ciphertext: its answer carries `sealed` beside the separate fields (docs/spec.md §4.5). */
  readonly sealsAnswer?: true;
  readonly call: (crypto: CryptoUseCases, caller: Caller, ttag: string, request: z.output<z.ZodObject<S>>) => Promise<A>;
}

/** An encryption context (docs/spec.md §4.5b): encrypt, decrypt, rewrap and the data-key routes take one. */
const context = encryptionContextField.optional();

/** Declares an operation with its request's type inferred from its fields. */
function operation<S extends z.ZodRawShape, A extends object>(definition: CryptoOperation<S, A>): CryptoOperation<z.ZodRawShape, object> {
  return definition as unknown as CryptoOperation<z.ZodRawShape, object>;
}

/** A ciphertext: the separate fields, or `sealed` instead of them (`eitherForm`). */
const sealed = {
  ciphertext: binary.optional(),
  iv: binary.optional(),
  authTag: binary.optional(),
  aad: binary.optional(),
  version: keyVersion.optional(),
  sealed: sealedText.optional(),
  context,
};

/**
 * AES-GCM and HMAC-SHA256 under the raw key of a version: encrypt and MAC under the newest, decrypt,
 * MAC verify and rewrap by `version` (1 when absent). Encrypting and computing or checking a MAC change
 * nothing and release nothing the caller did not send: they are recorded after the fact (`read`).
 * Decryption releases plaintext, so its record is begun first and the operation is refused without
 * it (`write`); so is a rewrap's.
 */
const OPERATIONS = [
  operation({
    batch: 'encrypt',
    operationId: 'crypto.encrypt',
    path: '/api/crypto/encrypt',
    summary: "AES-GCM under the key's newest version, 12-byte iv, 16-byte tag; right encrypt",
    kind: 'read',
    fields: { plaintext: binary, aad: binary.optional(), context },
    answer: responses.encrypted,
    version: 'answered',
    sealsAnswer: true,
    call: (crypto, caller, ttag, request) => crypto.encrypt(caller, ttag, request),
  }),
  operation({
    batch: 'decrypt',
    operationId: 'crypto.decrypt',
    path: '/api/crypto/decrypt',
    summary: 'AES-GCM decryption by version (default 1); a bad tag is 400 DECRYPT_FAILED; right decrypt',
    kind: 'write',
    fields: sealed,
    eitherForm: true,
    answer: responses.decrypted,
    version: 'asked',
    call: (crypto, caller, ttag, request) => crypto.decrypt(caller, ttag, request as DecryptRequest),
  }),
  operation({
    batch: 'rewrap',
    operationId: 'crypto.rewrap',
    path: '/api/crypto/rewrap',
    summary: 'Decrypt by version (default 1) and encrypt under the newest, inside the key server; rights decrypt and encrypt',
    kind: 'write',
    fields: sealed,
    eitherForm: true,
    answer: responses.encrypted,
    version: 'asked',
    sealsAnswer: true,
    call: (crypto, caller, ttag, request) => crypto.rewrap(caller, ttag, request as DecryptRequest),
  }),
  operation({
    batch: 'mac',
    operationId: 'crypto.mac',
    path: '/api/crypto/mac',
    summary: "HMAC-SHA256 under the key's newest version; right mac",
    kind: 'read',
    fields: { data: binary },
    answer: responses.mac,
    version: 'answered',
    call: (crypto, caller, ttag, request) => crypto.mac(caller, ttag, request.data),
  }),
  operation({
    batch: 'verify',
    operationId: 'crypto.mac.verify',
    path: '/api/crypto/mac/verify',
    summary: 'Check an HMAC-SHA256 by version (default 1) in constant time; right mac',
    kind: 'read',
    fields: { data: binary, mac: binary, version: keyVersion.optional() },
    answer: responses.macValid,
    version: 'asked',
    call: (crypto, caller, ttag, request) => crypto.verifyMac(caller, ttag, request),
  }),
];

/** Data cryptography (docs/spec.md §4.5, §4.22): the five operations of `OPERATIONS`, each single or batch, and data keys (§4.5a). */
export function cryptoRoutes(services: GatewayServices): ApiRoute[] {
  return [...OPERATIONS.map((declared) => cryptoRoute(declared, services.crypto)), ...dataKeyRoutes(services)];
}

/** A short binary value (a data-key blob), decoded at the edge. */
const shortBinary = base64.max(256).transform((value): Uint8Array => Buffer.from(value, 'base64'));
/** A client's public key, P-256 or X-Wing (docs/spec.md §3.4), decoded at the edge; the key server checks its length. */
const clientKey = base64.max(CLIENT_PUB_KEY_MAX_CHARS).transform((value): Uint8Array => Buffer.from(value, 'base64'));

/** A data key's request beside its `ttag` (docs/spec.md §4.5a): a single request's, and a batch item's. */
export const DATA_KEY_FIELDS = {
  keyLen: z.union([z.literal(16), z.literal(24), z.literal(32)]).default(32),
  clientPubKey: clientKey.optional(),
  context,
};
/** A data-key opening's request beside its `ttag` (docs/spec.md §4.5a item 2). */
export const DATA_KEY_OPEN_FIELDS = { blob: shortBinary, clientPubKey: clientKey, context };

/**
 * A single data-key request, or `{ items }` of them (docs/spec.md §4.5a item 7): an item's ttag is read
 * as the single request's, but a bad one fails that item alone (crypto-batch.ts).
 */
function dataKeyBody<F extends z.ZodRawShape>(fields: F) {
  return singleOrBatch(
    z.strictObject({ ttag: keyReferenceField(ttag), ...fields }),
    z.strictObject({ ttag: ttag.transform(readKeyReference), ...fields }),
  );
}

/**
 * Data keys (docs/spec.md §4.5a), made, sealed and wrapped in the key server: the gateway holds only
 * the blob and the wrap. Both answer key material wrapped to the caller's key, so both are releases,
 * asked of the key server only once their pending record is stored (docs/spec.md §9.2); a batch
 * (`{ items }`, item 7) too, in one round trip, its items answered only once its record is complete.
 */
function dataKeyRoutes(services: GatewayServices): ApiRoute[] {
  return [
    route({
      operationId: 'crypto.datakey',
      kind: 'release',
      method: 'POST',
      path: '/api/crypto/datakey',
      auth: 'session',
      summary: "A fresh data key sealed under the key's newest version, and wrapped to clientPubKey when given; right encrypt",
      body: dataKeyBody(DATA_KEY_FIELDS),
      success: { status: 200, schema: z.union([responses.dataKey, responses.batch(responses.dataKey)]) },
      async handle(ctx, { body, audit }) {
        if (!('items' in body)) audit.note({ context: body.context });
        await audit.recorded();
        if ('items' in body) return runBatch(ctx, audit, services.crypto, 'datakey', body.items);
        const made = await services.keyServerCalls.call(callerOf(ctx), 'generateDataKey', body);
        audit.note({ version: made.version });
        noteResolved(audit, body.ttag, made.resolved);
        ctx.body = encodeBinary(withoutResolved(made));
        wipeBinary(made);
      },
    }),
    route({
      operationId: 'crypto.datakey.open',
      kind: 'release',
      method: 'POST',
      path: '/api/crypto/datakey/open',
      auth: 'session',
      summary: "A data key's blob opened and its data key wrapped again to clientPubKey; right decrypt",
      body: dataKeyBody(DATA_KEY_OPEN_FIELDS),
      success: { status: 200, schema: z.union([responses.dataKeyOpened, responses.batch(responses.dataKeyOpened)]) },
      async handle(ctx, { body, audit }) {
        if (!('items' in body)) audit.note({ context: body.context });
        await audit.recorded();
        if ('items' in body) return runBatch(ctx, audit, services.crypto, 'datakey.open', body.items);
        const opened = await services.keyServerCalls.call(callerOf(ctx), 'openDataKey', body);
        audit.note({ version: opened.version });
        noteResolved(audit, body.ttag, opened.resolved);
        ctx.body = withoutResolved(opened);
      },
    }),
  ];
}

/**
 * The route of one operation. A single request's ttag is read by the schema (a bad one is the
 * request's 400); a batch item's is read there too, but a bad one fails that item alone (crypto-batch.ts).
 * Every byte array, asked or answered, is zeroed once the answer is encoded.
 */
function cryptoRoute(declared: CryptoOperation<z.ZodRawShape, object>, crypto: CryptoUseCases): ApiRoute {
  const form = <T extends z.ZodObject>(request: T) => (declared.eitherForm ? oneCiphertextForm(request) : request);
  const single = form(z.strictObject({ ttag: keyReferenceField(ttag), ...declared.fields }));
  const item = form(z.strictObject({ ttag: ttag.transform(readKeyReference), ...declared.fields }));
  const present = declared.sealsAnswer ? (answer: object) => withSealedText(answer as EncryptResult) : (answer: object) => answer;
  return route({
    operationId: declared.operationId,
    kind: declared.kind,
    method: 'POST',
    path: declared.path,
    auth: 'session',
    summary: declared.summary,
    body: singleOrBatch(single, item),
    success: { status: 200, schema: z.union([declared.answer, responses.batch(declared.answer)]) },
    async handle(ctx, { body, audit }) {
      if ('items' in body) return runBatch(ctx, audit, crypto, declared.batch, body.items, present);
      const { ttag: key, ...request } = body;
      if (declared.version === 'asked') audit.note({ version: (request as { version?: number }).version ?? 1 });
      audit.note({ context: (request as { context?: EncryptionContext }).context });
      let answer: object | undefined;
      try {
        answer = await declared.call(crypto, callerOf(ctx), key, request);
        if (declared.version === 'answered') audit.note({ version: (answer as { version: number }).version });
        noteResolved(audit, key, (answer as Resolved).resolved);
        ctx.body = encodeBinary(present(withoutResolved(answer as Resolved)));
      } finally {
        wipeBinary(request, answer);
      }
    },
  });
}
