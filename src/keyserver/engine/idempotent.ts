import type { IdempotencyClaim } from '../../wire/crypto-messages.js';
import { BadRequestError, IdempotencyKeyReusedError } from '../model/key-server-errors.js';
import type { EngineContext } from './engine-context.js';

/** How long an idempotency record answers retries: 24 hours, by the engine's clock. */
export const IDEMPOTENCY_WINDOW_MS = 86_400_000;

/** An idempotency key: 1 to 255 visible ASCII characters (0x21 to 0x7E). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** A request's fingerprint: base64url (no padding) of a SHA-256 digest. */
const FINGERPRINT = /^[A-Za-z0-9_-]{43}$/;

/** What `idempotent` answers: the answer, and whether it is a replay of an earlier request's. */
export interface IdempotentOutcome<T> {
  readonly answer: T;
  /** True when the answer is the first request's, replayed: this request created nothing. */
  readonly replayed: boolean;
}

/**
 * Runs `create` once per caller and Idempotency-Key (draft-ietf-httpapi-idempotency-key-header):
 * within the window, a request with the same fingerprint answers the first answer and runs nothing;
 * one with another fingerprint, or for another operation, is IDEMPOTENCY_KEY_REUSED. The record is
 * written in the caller's unit of the store, with what `create` wrote: a retry finds both or neither.
 * On a store shared by several key servers two first requests racing each other write the same record;
 * the store's isolation makes the later unit run again, and it then answers the first's answer.
 * The caller has been authorized before: a replay tells nothing its caller could not learn again.
 */
export async function idempotent<T>(
  ctx: EngineContext,
  principalId: string,
  operation: string,
  claim: IdempotencyClaim | undefined,
  create: () => Promise<T>,
): Promise<IdempotentOutcome<T>> {
  if (claim === undefined) return { answer: await create(), replayed: false };
  if (typeof claim.key !== 'string' || !IDEMPOTENCY_KEY.test(claim.key)) {
    throw new BadRequestError('Idempotency-Key: 1 to 255 visible ASCII characters');
  }
  if (typeof claim.fingerprint !== 'string' || !FINGERPRINT.test(claim.fingerprint)) {
    throw new BadRequestError('idempotency fingerprint: base64url of a SHA-256 digest');
  }
  const now = ctx.now();
  const record = await ctx.store.idempotencyRecord(principalId, claim.key);
  if (record !== undefined && record.createdAt > now - IDEMPOTENCY_WINDOW_MS) {
    if (record.operation !== operation || record.fingerprint !== claim.fingerprint) throw new IdempotencyKeyReusedError();
    return { answer: JSON.parse(record.answer) as T, replayed: true };
  }
  const answer = await create();
  await ctx.store.putIdempotencyRecord({
    principalId,
    key: claim.key,
    operation,
    fingerprint: claim.fingerprint,
    answer: JSON.stringify(answer),
    createdAt: now,
  });
  return { answer, replayed: false };
}

/**
 * Notes on the caller's record under `key` that its answer was replayed once more (docs/spec.md §4.22
 * item 7): a creation whose first answer has been handed to a retry is no longer its first request's
 * alone to undo (`forgetIdempotencyRecord` then keeps it). The count travels in the stored answer, as
 * `replays`; written in the replay's unit of the store, so an undo sees it or runs before it.
 */
export async function noteReplayAnswered(ctx: EngineContext, principalId: string, key: string): Promise<void> {
  const record = await ctx.store.idempotencyRecord(principalId, key);
  if (record === undefined) return;
  const answer = JSON.parse(record.answer) as Record<string, unknown>;
  const replays = typeof answer.replays === 'number' ? answer.replays : 0;
  await ctx.store.putIdempotencyRecord({ ...record, answer: JSON.stringify({ ...answer, replays: replays + 1 }) });
}

/**
 * Forgets the caller's record under `key` when `answered` says its answer is what is being undone
 * (docs/spec.md §4.22 item 7: an undone creation is not replayed; a retry creates afresh), and answers
 * `forgotten`. A record whose answer was replayed already (`noteReplayAnswered`) stays, and answers
 * `replayed`: a retry holds that answer, so the undo must keep what it names. A record of another
 * operation, or one answering something else, stays too (`none`).
 */
export async function forgetIdempotencyRecord(
  ctx: EngineContext,
  principalId: string,
  key: string,
  operation: string,
  answered: (answer: unknown) => boolean,
): Promise<'forgotten' | 'replayed' | 'none'> {
  const record = await ctx.store.idempotencyRecord(principalId, key);
  if (record === undefined || record.operation !== operation) return 'none';
  const answer = JSON.parse(record.answer) as { replays?: unknown };
  if (!answered(answer)) return 'none';
  if (typeof answer.replays === 'number' && answer.replays > 0) return 'replayed';
  await ctx.store.deleteIdempotencyRecord(principalId, key);
  return 'forgotten';
}

/** Forgets the records whose window has passed (the schedule's sweep); answers how many went. */
export async function purgeIdempotencyRecords(ctx: EngineContext): Promise<number> {
  return await ctx.store.deleteIdempotencyRecords(ctx.now() - IDEMPOTENCY_WINDOW_MS);
}
