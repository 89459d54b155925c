import { z } from 'zod';
import { RIGHTS } from './acl.js';
import { MAX_BATCH_ITEMS } from './crypto-messages.js';
import { contextFault, contextNameFault, type EncryptionContext } from './encryption-context.js';
import { KEY_LENGTHS } from './key-length.js';
import { KEY_TYPES, SIGNING_ALGS } from './key-type.js';
import { KEY_STATES, KEY_USES } from './key-view.js';
import { PRINCIPAL_KINDS } from './principal.js';
import { jsonTextFault, type TextControls, textFault } from './text.js';

/**
 * The values the key-server protocol carries (docs/keyserver-protocol.md "Values"), each with a bound:
 * a daemon never parses, and an adapter never accepts, more than the protocol allows. Binary values
 * travel as standard base64 on a wire; those of data cryptography and key export are bytes in a
 * process (`bytes`, `payloadBytes`).
 */

/** Short binary values: SRP numbers, ivs, tags, MACs, salts and verifiers. */
export const base64 = z.base64().max(4096);
/**
 * Data under cryptography (plaintext, ciphertext, aad, MAC input): as large as a gateway request body
 * allows (1 MiB, docs/spec.md §7), never larger.
 */
export const PAYLOAD_MAX_CHARS = 1024 * 1024;
export const payload = z.base64().max(PAYLOAD_MAX_CHARS);

/**
 * A binary value that travels as standard base64 on a wire and as bytes in a process: parsing decodes
 * it (a daemon reading arguments, an adapter reading a reply), `toWire` encodes it. In the embedded
 * key server the bytes go from the engine to the gateway untouched, never as a string that cannot be
 * zeroed.
 */
function bytesOf(onWire: z.ZodType<string, string>) {
  return z.codec(
    onWire,
    z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'not bytes'),
    {
      decode: (text) => Buffer.from(text, 'base64'),
      encode: (bytes) => base64Of(bytes),
    },
  );
}

/** `base64` as bytes: short binary values (key material, ivs, tags, MACs). */
export const bytes = bytesOf(base64);
/** `payload` as bytes: data under cryptography. */
export const payloadBytes = bytesOf(payload);

function base64Of(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * A value as JSON carries it: every byte array in it, in arrays and plain objects at any depth,
 * becomes standard base64 (the `bytes` values of the protocol); everything else is kept as it is,
 * for JSON.stringify. The daemon encodes its results so, the TLS adapter its arguments.
 */
export function toWire(value: unknown): unknown {
  if (value instanceof Uint8Array) return base64Of(value);
  if (Array.isArray(value)) return value.map(toWire);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, toWire(member)]));
}

/** Zeroes every byte array in a value, as `toWire` finds them: its holder owns them and is done with them. */
export function wipeBytes(value: unknown): void {
  if (value instanceof Uint8Array) value.fill(0);
  else if (Array.isArray(value)) for (const member of value) wipeBytes(member);
  else if (isPlainObject(value)) for (const member of Object.values(value)) wipeBytes(member);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
/**
 * A string argument under the text rule (docs/spec.md §1.6, src/wire/text.ts): well-formed Unicode, no
 * control character but those `controls` allows. The daemon refuses any other with BAD_REQUEST naming
 * the argument, so no caller, the gateway or another, stores a NUL or a lone surrogate. Replies are
 * read as they are: a row stored before the rule must stay readable.
 */
export function ruled<S extends z.ZodType<string>>(schema: S, controls: TextControls = 'none') {
  return schema.superRefine(function checkText(value, ctx) {
    const fault = textFault(value, controls);
    if (fault !== undefined) ctx.addIssue({ code: 'custom', message: fault, input: value });
  });
}

/** An argument whose shape the engine checks (a JWK, a policy value): every string in it, names too, under the rule. */
export function ruledJson<S extends z.ZodType>(schema: S) {
  return schema.superRefine(function checkJsonText(value, ctx) {
    const found = jsonTextFault(value);
    if (found !== undefined) ctx.addIssue({ code: 'custom', message: found.fault, path: found.path, input: value });
  });
}

// Arguments: under the text rule.
export const name = ruled(z.string().min(1).max(256));
export const ttag = ruled(z.string().min(1).max(1024));
export const cursor = ruled(z.string().min(1).max(1024));
export const pem = ruled(z.string().min(1).max(65_536), 'lines');
const text = ruled(z.string().max(1024));
const names = z.array(name).max(256).readonly();
// Replies: bounded, read as stored.
const replyText = z.string().max(1024);
const operationIds = z.array(z.string().min(1).max(128)).max(256).readonly();
const roleNames = z.array(z.string().min(1).max(256)).max(256).readonly();

/** RFC 6750 §2.1 b64token: what an `Authorization: Bearer` header may carry. */
export const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const bearerToken = z.string().max(512).regex(BEARER_TOKEN);
export const rights = z.array(z.enum(RIGHTS)).max(RIGHTS.length).readonly();
export const identity = z.strictObject({
  user: z.string(),
  systemId: z.number().int(),
  principalId: z.string().regex(/^[0-9a-f]{16}$/),
});

/** What every minted token answers: the token, who it is, when it expires (null: never). */
export const mintedToken = {
  token: bearerToken,
  identity,
  expiresAt: z.number().int().nullable(),
};

/** A page of a list (`next` is the opaque cursor of the following one); never more than 1000 items. */
export function list<T extends z.ZodType>(item: T) {
  return z.strictObject({
    items: z.array(item).max(1000).readonly(),
    complete: z.boolean(),
    reason: replyText.optional(),
    next: z.string().min(1).max(1024).optional(),
  });
}

export const certificate = z.strictObject({
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

export const verdict = z.strictObject({
  trusted: z.boolean(),
  chain: z
    .array(z.string().regex(/^[0-9a-f]{64}$/))
    .max(64)
    .readonly(),
  reason: replyText.optional(),
});

export const certificateQuery = z.strictObject({
  subject: name.optional(),
  principal: name.optional(),
  limit: z.number().int().min(1).max(500),
  cursor: cursor.optional(),
});

export const policy = z.strictObject({
  autoProvision: z.boolean(),
  nameAttribute: z.enum(['CN', 'UID', 'emailAddress']),
  defaultRoles: roleNames,
  defaultGroups: roleNames,
});

/**
 * A key version as a request names it: any safe integer, so that 0, a negative number or one above the
 * newest reaches the engine and is KEY_VERSION_NOT_FOUND rather than a malformed request.
 */
export const keyVersion = z.number().int();
/** A version the key server answers: 1 or more. */
const storedVersion = z.number().int().positive();

/**
 * The ttag an `alias/<name>` in the request resolved to (docs/spec.md §4.23 item 3), beside a result
 * that does not name its key otherwise: present only when the request named the key by alias.
 */
export function keyed<T extends z.ZodRawShape>(result: z.ZodObject<T, z.core.$strict>) {
  return result.extend({ resolved: ttag.optional() });
}

/** One alias as the key server answers it (src/wire/alias.ts). */
export const aliasView = z.strictObject({ alias: z.string(), ttag: z.string(), createdAt: z.string(), updatedAt: z.string() });

/** One version as the key view and the versions operation list it (never the material). */
export const keyVersionView = z.strictObject({ version: storedVersion, createdAt: z.string(), state: z.enum(['active', 'retired']) });

export const keyView = z.strictObject({
  ttag: z.string(),
  type: z.enum(KEY_TYPES),
  keyLen: z.literal(KEY_LENGTHS).optional(),
  algo: z.string().optional(),
  alg: z.enum(SIGNING_ALGS).optional(),
  exportable: z.boolean().optional(),
  published: z.boolean().optional(),
  jwtMaxLifetime: z.number().int().positive().optional(),
  label: z.string().optional(),
  owner: identity,
  state: z.enum(KEY_STATES),
  createdAt: z.string(),
  expiresAt: z.string().optional(),
  version: storedVersion,
  minVersion: storedVersion,
  versions: z.array(keyVersionView).max(1_000_000).readonly(),
  versionsOmitted: z.number().int().positive().optional(),
  rotationPeriod: z.string().max(64).optional(),
  nextRotationAt: z.string().optional(),
  lastUsedAt: z.string().optional(),
  lastUsedOperation: z.enum(KEY_USES).optional(),
  tags: z.record(z.string(), z.string()).readonly(),
  deletionAt: z.string().optional(),
  deletedAt: z.string().optional(),
});

/** A key as the key list shows it (docs/spec.md §4.23 item 1): the view without its versions. */
export const keySummary = keyView.omit({ versions: true, versionsOmitted: true });

/**
 * The key list's query (docs/spec.md §4.23 item 1): the key server checks each filter's range and
 * answers BAD_REQUEST naming it. Times in ms since the epoch.
 */
export const keyListQuery = z.strictObject({
  q: ruled(z.string().max(1024)).optional(),
  tag: z
    .array(ruled(z.string().max(1024)))
    .max(1024)
    .optional(),
  state: z.enum(KEY_STATES).optional(),
  owner: ruled(z.string().max(1024)).optional(),
  createdAfter: z.number().int().optional(),
  createdBefore: z.number().int().optional(),
  limit: z.number().int(),
  cursor: cursor.optional(),
});

/** An Idempotency-Key claim: 1..255 visible ASCII characters, and the request's fingerprint (base64url SHA-256). */
export const idempotencyClaim = z.strictObject({
  key: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/),
  fingerprint: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

export const newKey = z.strictObject({
  type: z.enum(KEY_TYPES).optional(),
  keyLen: z.literal(KEY_LENGTHS).optional(),
  alg: z.enum(SIGNING_ALGS).optional(),
  exportable: z.boolean().optional(),
  jwtMaxLifetime: z.number().int().optional(),
  label: text.optional(),
  expiresAt: z.number().int().optional(),
  rotationPeriod: ruled(z.string().max(64)).optional(),
});

/**
 * An encryption context (docs/spec.md §4.5b item 1), checked by the one rule (src/wire/encryption-context.ts)
 * whoever sent it: the daemon refuses a bad one with BAD_REQUEST naming `context`, or `context.<name>`
 * for a bad value (a name the rule refuses is not repeated: it may hold anything). Its members are
 * copied as own properties, so a name such as `__proto__` stays a member.
 */
export const encryptionContext = z.unknown().transform(function checkContext(value, ctx): EncryptionContext {
  const found = contextFault(value);
  if (found !== undefined) {
    const named = found.member !== '' && contextNameFault(found.member) === undefined;
    ctx.addIssue({ code: 'custom', message: found.fault, path: named ? [found.member] : [], input: value });
    return z.NEVER;
  }
  return Object.fromEntries(Object.entries(value as Record<string, string>));
});

export const encryptRequest = z.strictObject({
  plaintext: payloadBytes,
  aad: payloadBytes.optional(),
  context: encryptionContext.optional(),
});
export const encryptResult = z.strictObject({
  ciphertext: payloadBytes,
  iv: bytes,
  authTag: bytes,
  alg: z.enum(['A128GCM', 'A192GCM', 'A256GCM']),
  version: storedVersion,
});
export const decryptRequest = z.strictObject({
  ciphertext: payloadBytes,
  iv: bytes,
  authTag: bytes,
  aad: payloadBytes.optional(),
  version: keyVersion.optional(),
  context: encryptionContext.optional(),
});
export const macResult = z.strictObject({ mac: bytes, alg: z.literal('HS256'), version: storedVersion });
export const verifyMacRequest = z.strictObject({ data: payloadBytes, mac: bytes, version: keyVersion.optional() });

// Signing keys (docs/spec.md §4.25): the engine checks which of message and digest, and their lengths.
const signingAlg = z.enum(SIGNING_ALGS);
/** A version's key id: an RFC 7638 thumbprint (43 base64url characters); a request's is checked by the engine. */
const kid = z.string().max(256);
export const signRequest = z.strictObject({ alg: signingAlg, message: payloadBytes.optional(), digest: bytes.optional() });
export const signResult = z.strictObject({ signature: bytes, alg: signingAlg, version: storedVersion, kid, type: z.enum(KEY_TYPES) });
export const verifySignatureRequest = signRequest.extend({ signature: bytes, version: keyVersion.optional(), kid: ruled(kid).optional() });
export const verifySignatureResult = z.strictObject({
  valid: z.boolean(),
  version: storedVersion.optional(),
  kid: kid.optional(),
  type: z.enum(KEY_TYPES),
});
/** A public JWK (docs/spec.md §4.25 item 6): string members only, never a private one. */
export const publicJwk = z.record(z.string().max(64), z.string().max(4096)).refine((jwk) => !('d' in jwk || 'p' in jwk), 'a private JWK');

/**
 * One batch item. Its members are bounded here, and parsed for the batch's operation by
 * `runCryptoBatch` (batch-items.ts), item by item, so that one malformed item fails alone (its
 * outcome), never the batch: on a wire they are base64 strings decoded there, in the embedded key
 * server the bytes themselves.
 */
const looseValue = z
  .union([z.string().max(PAYLOAD_MAX_CHARS), z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'not bytes')])
  .optional();
export const batchItem = z.strictObject({
  ttag,
  plaintext: looseValue,
  aad: looseValue,
  ciphertext: looseValue,
  iv: looseValue,
  authTag: looseValue,
  data: looseValue,
  mac: looseValue,
  version: keyVersion.optional(),
  /** The item's encryption context, checked with the item (batch-items.ts) so that a bad one fails it alone. */
  context: z.unknown().optional(),
  // Signing items (docs/spec.md §4.25 items 3, 4).
  alg: z.string().max(16).optional(),
  message: looseValue,
  digest: looseValue,
  signature: looseValue,
  kid: z.string().max(256).optional(),
  // Data-key items (docs/spec.md §4.5a item 7).
  keyLen: z.number().int().optional(),
  clientPubKey: looseValue,
  blob: looseValue,
});
export const batchOperation = z.enum(['encrypt', 'decrypt', 'mac', 'verify', 'rewrap', 'sign', 'sign.verify', 'datakey', 'datakey.open']);
/** Up to MAX_BATCH_ITEMS items; `runCryptoBatch` refuses more with BAD_REQUEST too (the embedded adapter parses nothing). */
export const batchItems = z.array(batchItem).max(MAX_BATCH_ITEMS).readonly();
/**
 * The outcomes of a batch, one per item: a result of a data-cryptography or signing operation, or of
 * one of `more` (the data keys made and opened, declared beside their single operations).
 */
export function batchOutcomes<const M extends readonly z.ZodType[]>(...more: M) {
  return z
    .array(
      z.union([
        z.strictObject({
          ok: z.literal(true),
          result: z.union([
            encryptResult,
            macResult,
            z.strictObject({ plaintext: payloadBytes }),
            z.strictObject({ valid: z.boolean() }),
            signResult,
            verifySignatureResult,
            ...more,
          ]),
          resolved: ttag.optional(),
        }),
        z.strictObject({ ok: z.literal(false), code: z.string().min(1).max(64), message: z.string().max(4096), resolved: ttag.optional() }),
      ]),
    )
    .max(MAX_BATCH_ITEMS)
    .readonly();
}

const kind = z.enum(PRINCIPAL_KINDS as readonly ['user', 'group', 'service']);
export const principalView = z.strictObject({
  name: z.string(),
  kind,
  systemId: z.number().int(),
  principalId: z.string().regex(/^[0-9a-f]{16}$/),
  displayName: z.string().optional(),
  disabled: z.boolean(),
  roles: roleNames,
  createdAt: z.string(),
  jkt: z.string().optional(),
  delegates: roleNames.optional(),
  provisionedBy: z.string().optional(),
});

/** An SRP-6a verifier made by the gateway: a password never reaches the key server. */
export const verifier = z.strictObject({ salt: base64, verifier: base64 });

export const newPrincipal = z.strictObject({
  name,
  kind,
  displayName: text.optional(),
  roles: names.optional(),
  verifier: verifier.optional(),
});

export const principalChanges = z.strictObject({
  displayName: text.optional(),
  disabled: z.boolean().optional(),
  roles: names.optional(),
  delegates: names.optional(),
});

export const principalQuery = z.strictObject({
  kind: kind.optional(),
  limit: z.number().int().min(1).max(500),
  cursor: cursor.optional(),
});

export const role = z.strictObject({ name: z.string(), operations: operationIds });

/** What a token may do beyond single keys: its principal's operations, and whether it is scoped. */
export const heldOperations = z.strictObject({ operations: operationIds, scoped: z.boolean() });

export const parameterValue = z.union([z.number(), z.boolean(), text]);
export const parameter = z.strictObject({
  name: z.string(),
  value: z.union([z.number(), z.boolean(), replyText]),
  type: z.enum(['integer', 'boolean', 'string']),
  description: z.string(),
});
