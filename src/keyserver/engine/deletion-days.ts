/** The fewest and most days a scheduled deletion waits unless the key server is told otherwise (docs/spec.md §4.23 item 5). */
export const DEFAULT_DELETION_MIN_DAYS = 7;
export const DEFAULT_DELETION_MAX_DAYS = 30;
/** The bounds a key server takes: 1 <= minimum <= maximum <= 365. */
export const DELETION_DAYS_LIMIT = 365;

/** How long a scheduled deletion may wait, in days: the key server's settings. */
export interface DeletionDays {
  readonly min: number;
  readonly max: number;
}

export const DEFAULT_DELETION_DAYS: DeletionDays = { min: DEFAULT_DELETION_MIN_DAYS, max: DEFAULT_DELETION_MAX_DAYS };

/** The problem with a pair of bounds, or undefined when 1 <= min <= max <= 365 (for a start-up error that names it). */
export function deletionDaysProblem(days: DeletionDays): string | undefined {
  const { min, max } = days;
  const inRange = (value: number) => Number.isInteger(value) && value >= 1 && value <= DELETION_DAYS_LIMIT;
  if (!inRange(min) || !inRange(max)) return `the deletion bounds are integers from 1 to ${DELETION_DAYS_LIMIT} days`;
  if (min > max) return `the deletion minimum (${min} days) is above the maximum (${max} days)`;
  return undefined;
}
