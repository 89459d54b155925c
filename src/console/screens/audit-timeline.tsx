import type { AuditRecordView } from '../console-api.js';
import { OUTCOMES, stepInWords, type TimeScale, timeLabel, timeScale } from './audit-scale.js';

const WIDTH = 720;
const PLOT_HEIGHT = 120;
/** Room left of the bars for the count axis, and under them for the time axis. */
const LEFT = 34;
const BOTTOM = 30;
const TOP = 8;

/**
 * Operations over time by outcome, for the records shown: stacked bars on a time scale (an empty
 * stretch of time is an empty stretch of axis), a count axis and a time axis with labels in UTC. SVG
 * drawn by the page itself; colours come from console.css, as the content policy allows no inline style.
 */
export function AuditTimeline({ records }: { records: readonly AuditRecordView[] }) {
  const scale = timeScale(records);
  if (scale === undefined) return null;
  const slot = (WIDTH - LEFT - 4) / scale.bins.length;
  const bar = Math.max(1, Math.min(24, slot - 2));
  const y = (count: number) => TOP + PLOT_HEIGHT - (count / scale.most) * PLOT_HEIGHT;
  return (
    <figure class="timeline" id="audit-timeline" data-step={scale.step}>
      <svg
        viewBox={`0 0 ${WIDTH} ${TOP + PLOT_HEIGHT + BOTTOM}`}
        width={WIDTH}
        height={TOP + PLOT_HEIGHT + BOTTOM}
        role="img"
        aria-label="operations over time by outcome"
      >
        <CountAxis scale={scale} y={y} />
        {scale.bins.map((bin, i) => {
          const x = LEFT + i * slot + (slot - bar) / 2;
          let top = TOP + PLOT_HEIGHT;
          return (
            <g key={bin.start}>
              <title>
                {new Date(bin.start).toISOString().slice(0, 16).replace('T', ' ')} UTC:{' '}
                {bin.total === 0
                  ? 'none'
                  : OUTCOMES.filter((o) => bin.counts[o] > 0)
                      .map((o) => `${bin.counts[o]} ${o}`)
                      .join(', ')}
              </title>
              {OUTCOMES.filter((o) => bin.counts[o] > 0).map((outcome) => {
                const h = Math.max(2, (bin.counts[outcome] / scale.most) * PLOT_HEIGHT);
                top -= h;
                return <rect key={outcome} class={`bar-${outcome}`} x={x} y={top} width={bar} height={h} />;
              })}
            </g>
          );
        })}
        <TimeAxis scale={scale} slot={slot} />
      </svg>
      <figcaption>
        Operations per {stepInWords(scale.step)} of the records shown (UTC):{' '}
        {OUTCOMES.map((o) => (
          <span key={o} class={`legend legend-${o}`}>
            {o}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** The count axis: a line, and its 0 and top (and middle, when a whole number) with labels. */
function CountAxis({ scale, y }: { scale: TimeScale; y: (count: number) => number }) {
  const marks = [...new Set([0, scale.most % 2 === 0 ? scale.most / 2 : 0, scale.most])];
  return (
    <g class="count-axis">
      <line class="axis-line" x1={LEFT - 2} y1={TOP} x2={LEFT - 2} y2={TOP + PLOT_HEIGHT} />
      {marks.map((count) => (
        <g key={count}>
          <line class="axis-line" x1={LEFT - 6} y1={y(count)} x2={LEFT - 2} y2={y(count)} />
          <text class="axis" x={LEFT - 8} y={y(count) + 3} text-anchor="end">
            {count}
          </text>
        </g>
      ))}
    </g>
  );
}

/** The time axis: a line under the bars, a tick at each labelled bar's start, its time under it. */
function TimeAxis({ scale, slot }: { scale: TimeScale; slot: number }) {
  const base = TOP + PLOT_HEIGHT;
  return (
    <g class="time-axis">
      <line class="axis-line" x1={LEFT - 2} y1={base} x2={WIDTH - 2} y2={base} />
      {scale.labelled.map((index) => {
        const x = LEFT + index * slot;
        const start = scale.bins[index]!.start;
        return (
          <g key={start}>
            <line class="axis-line" x1={x} y1={base} x2={x} y2={base + 4} />
            <text class="axis time-label" x={x} y={base + 16} data-at={new Date(start).toISOString()}>
              {timeLabel(start, scale)}
            </text>
          </g>
        );
      })}
    </g>
  );
}
