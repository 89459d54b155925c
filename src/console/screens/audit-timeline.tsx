import type { AuditRecordView } from '../console-api.js';

type Outcome = AuditRecordView['outcome'];

const OUTCOMES: readonly Outcome[] = ['ok', 'denied', 'error', 'pending'];

/** The records counted per minute (`YYYY-MM-DDTHH:MM`) and outcome, oldest minute first. */
export function perMinute(records: readonly AuditRecordView[]): { minute: string; counts: Record<Outcome, number> }[] {
  const minutes = new Map<string, Record<Outcome, number>>();
  for (const record of records) {
    const minute = record.at.slice(0, 16);
    const counts = minutes.get(minute) ?? { ok: 0, denied: 0, error: 0, pending: 0 };
    counts[record.outcome] += 1;
    minutes.set(minute, counts);
  }
  return [...minutes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([minute, counts]) => ({ minute, counts }));
}

const HEIGHT = 120;
const BAR = 18;
const GAP = 6;
/** Room for the first and last minute's labels however few bars there are. */
const MIN_WIDTH = 320;

/**
 * Operations per minute by outcome, for the records shown: one stacked bar a minute (SVG drawn by the
 * page itself; colours come from console.css, as the content policy allows no inline style).
 */
export function AuditTimeline({ records }: { records: readonly AuditRecordView[] }) {
  const minutes = perMinute(records);
  if (minutes.length === 0) return null;
  const most = Math.max(...minutes.map(({ counts }) => OUTCOMES.reduce((sum, o) => sum + counts[o], 0)));
  const width = Math.max(MIN_WIDTH, minutes.length * (BAR + GAP) + GAP + 40);
  return (
    <figure class="timeline" id="audit-timeline">
      <svg
        viewBox={`0 0 ${width} ${HEIGHT + 20}`}
        width={width}
        height={HEIGHT + 20}
        role="img"
        aria-label="operations per minute by outcome"
      >
        {minutes.map(({ minute, counts }, i) => {
          let top = HEIGHT;
          const x = GAP + i * (BAR + GAP);
          return (
            <g key={minute}>
              <title>
                {minute}:{' '}
                {OUTCOMES.filter((o) => counts[o] > 0)
                  .map((o) => `${counts[o]} ${o}`)
                  .join(', ')}
              </title>
              {OUTCOMES.filter((o) => counts[o] > 0).map((outcome) => {
                const h = Math.max(2, Math.round((counts[outcome] / most) * HEIGHT));
                top -= h;
                return <rect key={outcome} class={`bar-${outcome}`} x={x} y={top} width={BAR} height={h} />;
              })}
              {i === 0 || (i === minutes.length - 1 && i > 1) ? (
                <text x={x} y={HEIGHT + 14} class="axis">
                  {minute.slice(11)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption>
        Operations per minute of the records shown:{' '}
        {OUTCOMES.map((o) => (
          <span key={o} class={`legend legend-${o}`}>
            {o}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
