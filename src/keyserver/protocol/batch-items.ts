import { z } from 'zod';
import { type BatchOperation, type BatchOutcome, MAX_BATCH_ITEMS } from '../../wire/crypto-messages.js';
import { KEY_LENGTHS } from '../../wire/key-length.js';
import { SIGNING_ALGS } from '../../wire/key-type.js';
import { encryptionContext, keyVersion } from '../../wire/keyserver-values.js';
import type { BatchEntry, BatchRequests, BatchResult } from '../engine/crypto-operations.js';
import type { KeyServerEngine } from '../engine/engine.js';
import { BadRequestError } from '../model/key-server-errors.js';

/**
 * A binary member of an item: the bytes themselves in the embedded key server (the caller's, used as
 * they are), standard base64 on a wire (decoded here into bytes the batch owns).
 */
const binary = z.union(
  [
    z.instanceof(Uint8Array),
    // Standard base64 with its padding, nothing else (RFC 4648 §4): the one rule (src/wire/base64.ts).
    z.base64().transform((text) => Buffer.from(text, 'base64')),
  ],
  {
    error: (issue) => (issue.input === undefined ? 'required' : 'not standard base64'),
  },
);
const version = keyVersion.optional();
/** Checked here for every caller, the embedded adapter's too: a bad context fails its item alone (docs/spec.md §4.5b item 1). */
const context = encryptionContext.optional();

/** What an item of each operation carries: the single request's members (docs/keyserver-protocol.md "Operations"). */
const ITEMS: { readonly [O in BatchOperation]: z.ZodType<BatchRequests[O]> } = {
  encrypt: z.object({ ttag: z.string(), plaintext: binary, aad: binary.optional(), context }),
  decrypt: z.object({ ttag: z.string(), ciphertext: binary, iv: binary, authTag: binary, aad: binary.optional(), version, context }),
  mac: z.object({ ttag: z.string(), data: binary }),
  verify: z.object({ ttag: z.string(), data: binary, mac: binary, version }),
  rewrap: z.object({ ttag: z.string(), ciphertext: binary, iv: binary, authTag: binary, aad: binary.optional(), version, context }),
  sign: z.object({ ttag: z.string(), alg: z.enum(SIGNING_ALGS), message: binary.optional(), digest: binary.optional() }),
  'sign.verify': z.object({
    ttag: z.string(),
    alg: z.enum(SIGNING_ALGS),
    message: binary.optional(),
    digest: binary.optional(),
    signature: binary,
    version,
    kid: z.string().max(256).optional(),
  }),
  datakey: z.object({
    ttag: z.string(),
    keyLen: z.literal(KEY_LENGTHS, { error: 'not 16, 24 or 32' }),
    clientPubKey: binary.optional(),
    context,
  }),
  'datakey.open': z.object({ ttag: z.string(), blob: binary, clientPubKey: binary, context }),
};

/**
 * Where a batch's items enter the key server, from a daemon's arguments or the embedded adapter:
 * each is parsed here once, for the batch's operation, into the request the engine takes, or into
 * its refusal (BAD_REQUEST naming the member), so that one malformed item fails alone. More than
 * MAX_BATCH_ITEMS items is refused whole. The bytes decoded from base64 are the batch's, zeroed once
 * the engine is done; bytes given as bytes stay their caller's.
 */
export async function runCryptoBatch<O extends BatchOperation>(
  engine: KeyServerEngine,
  token: string,
  operation: O,
  items: readonly unknown[],
): Promise<BatchOutcome<BatchResult>[]> {
  if (items.length > MAX_BATCH_ITEMS) throw new BadRequestError(`items: at most ${MAX_BATCH_ITEMS} items`);
  const decoded: Buffer[] = [];
  const entries = items.map((item) => entryOf(ITEMS[operation], item, decoded));
  try {
    return await engine.crypto.batch(token, operation, entries);
  } finally {
    for (const bytes of decoded) bytes.fill(0);
  }
}

function entryOf<T extends object>(schema: z.ZodType<T>, item: unknown, decoded: Buffer[]): BatchEntry<T> {
  const parsed = schema.safeParse(item);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { refused: `${issue.path.join('.') || 'item'}: ${issue.message}` };
  }
  for (const [member, value] of Object.entries(parsed.data)) {
    if (Buffer.isBuffer(value) && value !== (item as Record<string, unknown>)[member]) decoded.push(value);
  }
  return { item: parsed.data };
}
