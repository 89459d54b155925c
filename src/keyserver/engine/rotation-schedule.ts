import { MIN_ROTATION_PERIOD_MS, parseIsoDuration } from '../../wire/iso-duration.js';
import { BadRequestError } from '../model/key-server-errors.js';
import type { KeyRow } from './engine-model.js';

/** The longest rotation period accepted: 100 years, so that every due time is a date. */
const MAX_ROTATION_PERIOD_MS = 36_500 * 86_400_000;

/** A key's rotation period as asked for, checked: an ISO 8601 duration from one day to 100 years, else BAD_REQUEST. */
export function checkedRotationPeriod(period: unknown): string {
  const ms = typeof period === 'string' ? parseIsoDuration(period) : undefined;
  if (ms === undefined)
    throw new BadRequestError('rotationPeriod: an ISO 8601 duration in weeks, days, hours, minutes or seconds (P90D, P1W, PT36H)');
  if (ms < MIN_ROTATION_PERIOD_MS) throw new BadRequestError('rotationPeriod: at least one day (P1D)');
  if (ms > MAX_ROTATION_PERIOD_MS) throw new BadRequestError('rotationPeriod: at most 100 years');
  return period as string;
}

/** When the newest version of the key was made (ms): the start of its current rotation period. */
export function newestVersionAt(key: KeyRow): number {
  return key.laterVersions.at(-1)?.createdAt ?? key.createdAt;
}

/**
 * When the key's next scheduled rotation falls due (ms): its rotation period after its newest version
 * was made, whether that version came from the schedule or from a rotation asked for. Undefined for a
 * key without a period.
 */
export function nextRotationAt(key: KeyRow): number | undefined {
  if (key.rotationPeriod === undefined) return undefined;
  const period = parseIsoDuration(key.rotationPeriod);
  return period === undefined ? undefined : newestVersionAt(key) + period;
}

/** A key is due when its period has elapsed since its newest version, and it is not expired. */
export function isRotationDue(key: KeyRow, now: number, expired: boolean): boolean {
  const due = nextRotationAt(key);
  return !expired && due !== undefined && due <= now;
}
