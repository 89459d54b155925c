/** One day in milliseconds: the shortest rotation period a key may carry. */
export const MIN_ROTATION_PERIOD_MS = 86_400_000;

const UNIT_MS = { W: 604_800_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1_000 } as const;

/**
 * ISO 8601 §4.4.3.2 duration, restricted to units of fixed length: weeks and days before the `T`,
 * hours, minutes and seconds after it, each a whole number of at most nine digits (`P90D`, `P1W`,
 * `PT36H`, `P1DT12H`). Years and months are refused: their length varies with the calendar.
 */
const DURATION = /^P(?:(\d{1,9})W)?(?:(\d{1,9})D)?(?:T(?=\d)(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9})S)?)?$/;

/**
 * The duration `text` names, in milliseconds; undefined when it is not such a duration, names no
 * component (`P`, `PT`), or does not fit a safe integer.
 */
export function parseIsoDuration(text: string): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = DURATION.exec(text);
  if (match === null || text === 'P') return undefined;
  const [, weeks, days, hours, minutes, seconds] = match;
  const parts: [string | undefined, number][] = [
    [weeks, UNIT_MS.W],
    [days, UNIT_MS.D],
    [hours, UNIT_MS.H],
    [minutes, UNIT_MS.M],
    [seconds, UNIT_MS.S],
  ];
  let total = 0;
  for (const [digits, unit] of parts) if (digits !== undefined) total += Number(digits) * unit;
  return Number.isSafeInteger(total) ? total : undefined;
}
