import type { AuditRecordView } from '../console-api.js';

export type Outcome = AuditRecordView['outcome'];

export const OUTCOMES: readonly Outcome[] = ['ok', 'denied', 'error', 'pending'];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The widths a bar may stand for, narrowest first: whole minutes, hours and days, so edges fall on round times. */
const STEPS: readonly number[] = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  30 * DAY,
];

/** At most this many bars: a page of records spread over weeks still draws as one readable row. */
export const MOST_BARS = 60;
/** At most this many time labels under the bars. */
const MOST_LABELS = 6;

/** One bar: the records whose `at` falls in [start, start + step), counted by outcome. */
export interface Bin {
  readonly start: number;
  readonly counts: Record<Outcome, number>;
  readonly total: number;
}

/** A time scale: the bars (empty ones included, so distance is time), their width, and where labels go. */
export interface TimeScale {
  readonly step: number;
  readonly bins: readonly Bin[];
  /** Indexes into `bins` that carry a time label, evenly spaced. */
  readonly labelled: readonly number[];
  /** The tallest bar's total: the top of the count axis. */
  readonly most: number;
}

/** The records binned on a time scale whose bars are a round width, from the oldest record's bar to the newest's. */
export function timeScale(records: readonly AuditRecordView[]): TimeScale | undefined {
  const times = records.map((record) => Date.parse(record.at)).filter((time) => Number.isFinite(time));
  if (times.length === 0) return undefined;
  const oldest = Math.min(...times);
  const newest = Math.max(...times);
  const step = STEPS.find((width) => Math.floor(newest / width) - Math.floor(oldest / width) < MOST_BARS) ?? STEPS.at(-1)!;
  const first = Math.floor(oldest / step);
  const bins: Bin[] = [];
  for (let n = first; n <= Math.floor(newest / step); n += 1)
    bins.push({ start: n * step, counts: { ok: 0, denied: 0, error: 0, pending: 0 }, total: 0 });
  records.forEach((record, index) => {
    const time = times[index];
    if (time === undefined) return;
    const bin = bins[Math.floor(time / step) - first]! as { counts: Record<Outcome, number>; total: number };
    bin.counts[record.outcome] += 1;
    bin.total += 1;
  });
  const every = Math.max(1, Math.ceil(bins.length / MOST_LABELS));
  const labelled = bins.map((_, index) => index).filter((index) => index % every === 0);
  return { step, bins, labelled, most: Math.max(...bins.map((bin) => bin.total)) };
}

/** A bar's time label, in UTC as the records are: `HH:MM` within one day, else `MM-DD HH:MM` (`MM-DD` for day-wide bars). */
export function timeLabel(start: number, scale: TimeScale): string {
  const iso = new Date(start).toISOString();
  if (scale.step >= DAY) return iso.slice(5, 10);
  const sameDay =
    new Date(scale.bins[0]!.start).toISOString().slice(0, 10) === new Date(scale.bins.at(-1)!.start).toISOString().slice(0, 10);
  return sameDay ? iso.slice(11, 16) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** A bar's width in words, for the caption: "1 minute", "15 minutes", "2 hours", "1 day". */
export function stepInWords(step: number): string {
  const [size, unit] = step >= DAY ? [step / DAY, 'day'] : step >= HOUR ? [step / HOUR, 'hour'] : [step / MINUTE, 'minute'];
  return `${size} ${unit}${size === 1 ? '' : 's'}`;
}
