import type { FailureRecord } from '../domain/throttle/throttle-policy.js';
import { token } from './token.js';

/**
 * Counters of failed logins and of requests per client address (docs/spec.md §10),
 * shared by every gateway when they live in Redis.
 *
 * Contract (`test/ports/throttle-store.contract.ts`):
 * - `fail` is atomic: N concurrent failures of one key, across gateways, count N. A key whose last
 *   failure is `windowMs` or more before `now` starts again at 1.
 * - `failures` answers what `fail` left (or undefined), judged by the caller against its window.
 * - `reset` forgets a key's failures.
 * - `hit` counts one request of a key in the one-second slot of `now` and answers the slot's count.
 * - A store that cannot be reached throws; the login is then refused (fails closed).
 */
export interface ThrottleStore {
  fail(key: string, now: number, windowMs: number): Promise<FailureRecord>;
  failures(keys: readonly string[]): Promise<(FailureRecord | undefined)[]>;
  reset(key: string): Promise<void>;
  hit(key: string, now: number): Promise<number>;
  close(): Promise<void>;
}

export const THROTTLE_STORE = token<ThrottleStore>('ThrottleStore');
