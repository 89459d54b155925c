import { z } from 'zod';
import type { AuditKeyUse } from '../../../domain/audit/audit.js';
import { batchKeyUses } from '../../../domain/audit/audit-batch-keys.js';
import type { readKeyReference } from '../../../domain/key/ttag.js';
import type { CryptoUseCases } from '../../../use-cases/crypto.js';
import { aliasOf } from '../../../wire/alias.js';
import { type BatchItem, type BatchOperation, type BatchOutcome, MAX_BATCH_ITEMS } from '../../../wire/crypto-messages.js';
import type { EncryptionContext } from '../../../wire/encryption-context.js';
import type { RequestAudit } from '../audit/audit-scope.js';
import { type ApiContext, callerOf } from './api-context.js';
import { encodeBinary, wipeBinary } from './crypto-bytes.js';

/**
 * A single request's body, or `{ items: [...] }` of 1..MAX_BATCH_ITEMS items (docs/spec.md §4.22
 * item 8). Both are strict objects, so a body fits one of them at most.
 */
export function singleOrBatch<S extends z.ZodType, I extends z.ZodType>(single: S, item: I) {
  const batch = z.strictObject({
    items: z.array(item).min(1, 'at least one item').max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} items`),
  });
  return z.union([single, batch]);
}

/**
 * A batch item as its schema hands it over: its key read (a canonical ttag or `alias/<name>`, or why it
 * is neither), its binary fields as bytes.
 */
export type ReadItem = { readonly ttag: ReturnType<typeof readKeyReference>; readonly context?: EncryptionContext | undefined } & object;

type ItemAnswer = ({ ok: true } & object) | { ok: false; error: { code: string; detail: string } };

/**
 * Runs a batch: an item whose ttag is none fails alone with BAD_REQUEST naming it, the rest go to the
 * key server in one round trip, their binary members as bytes (zeroed, with the
 * answered ones, once the answer is encoded). The record names the item count and the failures, every
 * distinct key and version the items named (docs/spec.md §9.1 `keys`), and the key as `object` when
 * every item names the same one; the answer (200) is one result per item, in order. An item that named
 * its key by alias counts under the ttag the key server resolved it to (docs/spec.md §4.23 item 3), and
 * a batch whose items all name one alias records it as `alias`. The record names the distinct
 * encryption contexts the items named too (docs/spec.md §9.1 `contexts`).
 */
export async function runBatch(
  ctx: ApiContext,
  audit: RequestAudit,
  crypto: CryptoUseCases,
  operation: BatchOperation,
  items: readonly ReadItem[],
  present: (result: object) => object = (result) => result,
): Promise<void> {
  const answers: (ItemAnswer | undefined)[] = items.map(() => undefined);
  const sent: BatchItem[] = [];
  const positions: number[] = [];
  items.forEach((item, index) => {
    if ('fault' in item.ttag) {
      answers[index] = { ok: false, error: { code: 'BAD_REQUEST', detail: `items.${index}.ttag: ${item.ttag.fault}` } };
      return;
    }
    sent.push({ ...item, ttag: item.ttag.ttag } as BatchItem);
    positions.push(index);
  });
  const whole = sent.length === items.length;
  const aliases = new Set(sent.map((item) => aliasOf(item.ttag)));
  const alias = whole && aliases.size === 1 ? [...aliases][0] : undefined;
  // The keys go in before the key server is asked, so a batch that fails whole still names them (those
  // named by ttag: an alias is named by the ttag it resolves to, known once the key server answered).
  audit.note({
    items: items.length,
    ...(alias === undefined ? {} : { alias }),
    ...keysOf(sent, [], whole),
    // Each item's context: the audit keeps the distinct ones, at most 16 (auditContextFields).
    contexts: items.flatMap((item) => (item.context === undefined ? [] : [item.context])),
  });
  let outcomes: readonly BatchOutcome[] = [];
  try {
    outcomes = await crypto.batch(callerOf(ctx), operation, sent);
    outcomes.forEach((outcome, i) => {
      answers[positions[i]!] = itemAnswer(outcome, present);
    });
  } finally {
    wipeBinary(...sent, ...outcomes.map((outcome) => (outcome.ok ? (outcome.result as object) : undefined)));
  }
  const done = answers as ItemAnswer[];
  const resolved = sent.map((item, index) => ({ ...item, ttag: outcomes[index]?.resolved ?? item.ttag }) as BatchItem);
  audit.note({ failures: done.filter((answer) => !answer.ok).length, ...keysOf(resolved, outcomes, whole) });
  ctx.body = { items: done };
}

/**
 * What the record names of the items' keys (docs/spec.md §9.1): every distinct key and version of the
 * items named by ttag, and the key as `object` when every item of the batch names that one key.
 */
function keysOf(items: readonly BatchItem[], outcomes: readonly BatchOutcome[], whole: boolean) {
  const known = items.flatMap((item, index) => (aliasOf(item.ttag) === undefined ? [index] : []));
  const keys = new Set(known.map((index) => items[index]!.ttag));
  const object = whole && keys.size === 1 && known.length === items.length ? { object: [...keys][0]! } : {};
  const uses = keyUses(
    known.map((index) => items[index]!),
    known.map((index) => outcomes[index]).filter((outcome) => outcome !== undefined),
  );
  return { ...object, ...batchKeyUses(uses) };
}

/**
 * The key and version each item used: the version it named (1 when absent: decrypt, verify, rewrap),
 * and the version its answer names (encrypt, MAC, and the newest a rewrap encrypted under).
 */
function* keyUses(sent: readonly BatchItem[], outcomes: readonly BatchOutcome[]): Generator<AuditKeyUse> {
  for (const [index, item] of sent.entries()) {
    const outcome = outcomes[index];
    const answered = outcome?.ok === true ? (outcome.result as { version?: unknown }).version : undefined;
    if ('ciphertext' in item || 'mac' in item) yield { ttag: item.ttag, version: item.version ?? 1 };
    if (typeof answered === 'number') yield { ttag: item.ttag, version: answered };
    else if (!('ciphertext' in item || 'mac' in item)) yield { ttag: item.ttag };
  }
}

function itemAnswer(outcome: BatchOutcome, present: (result: object) => object): ItemAnswer {
  if (!outcome.ok) return { ok: false, error: { code: outcome.code, detail: outcome.message } };
  return { ok: true, ...encodeBinary(present(outcome.result as object)) };
}
