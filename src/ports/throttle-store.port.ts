import type { FailureRecord } from '../domain/throttle/throttle-policy.js';
import { token } from './token.js';

/**
 * One attempt held on some keys (`ThrottleStore.reserve`): per key, in the order given, the failures
 * recorded so far and how many other attempts were held on it when this one was taken.
 */
export interface Reservation {
  readonly id: string;
  readonly keys: readonly string[];
  readonly records: readonly (FailureRecord | undefined)[];
  readonly ahead: readonly number[];
}

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
 * - `reserve` holds one attempt on each key and reads its failures, atomically per key: of N
 *   concurrent reservations of one key, across gateways, each sees a different number of attempts
 *   held before it (0 to N-1), so a caller that refuses past a limit admits at most the limit. A held
 *   attempt counts until `release`, or until `holdMs` after the `now` it was taken at (a gateway that
 *   stopped mid-check leaves nothing held for ever). `release` of a released attempt does nothing.
 * - A store that cannot be reached throws; the login is then refused (fails closed).
 */
export interface ThrottleStore {
  fail(key: string, now: number, windowMs: number): Promise<FailureRecord>;
  failures(keys: readonly string[]): Promise<(FailureRecord | undefined)[]>;
  reset(key: string): Promise<void>;
  hit(key: string, now: number): Promise<number>;
  reserve(keys: readonly string[], now: number, holdMs: number): Promise<Reservation>;
  release(reservation: Reservation): Promise<void>;
  close(): Promise<void>;
}

export const THROTTLE_STORE = token<ThrottleStore>('ThrottleStore');
