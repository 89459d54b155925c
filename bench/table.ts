import { loadavg } from 'node:os';
import { limitOf, type Measured, type Paired } from './load-client.js';

/** One figure of the performance table: what was measured, its floor from the same run, and the goal. */
export interface Figure {
  readonly figure: string;
  readonly measured: string;
  readonly floor: string;
  /** The figure in the goal's unit (a ratio to the floor, verifies, logins/s, bytes). */
  readonly value: number;
  readonly goal: { readonly op: '>=' | '<='; readonly target: number; readonly unit?: string };
  /** The load runs the figure came from (their limits are printed beside it). */
  readonly runs: readonly Measured[];
  readonly note?: string;
}

/** The server thread's busy time per request: its event-loop utilisation over the run, per request. */
export const serverMicros = (run: Measured) => (run.serverBusy * 1e6) / run.requestsPerSecond;

/** The server's CPU time per request: what the process used over the run, per request answered. */
export const serverCpuMicros = (run: Measured) => run.serverCpuUs / run.total;

/** A rate as a row shows it. */
export const rps = (run: Measured) => `${run.requestsPerSecond.toFixed(0)} req/s`;

/** Ratios as a note lists them: two decimals, comma-separated. */
export function ratios(values: readonly number[]): string {
  return values.map((value) => value.toFixed(2)).join(', ');
}

/** How a paired figure's note lists its rounds: every round's value, the row's spread in this run. */
export function roundsNote(values: readonly number[]): string {
  return `rounds: ${ratios(values)}; the median round is shown`;
}

/** A figure measured in alternated rounds beside its floor (`LoadClient.paired`): its median round, every round's value. */
export function pairedFigure(figure: string, paired: Paired, floor: string, goal: Figure['goal']): Figure {
  return {
    figure,
    measured: rps(paired.row),
    floor,
    value: paired.value,
    goal,
    runs: [paired.row, paired.floor],
    note: roundsNote(paired.values),
  };
}

const pad = (text: string, width: number) => (text.length >= width ? `${text} ` : text.padEnd(width));
const out = (line: string) => process.stdout.write(`${line}\n`);

function met(figure: Figure): boolean {
  return figure.goal.op === '>=' ? figure.value >= figure.goal.target : figure.value <= figure.goal.target;
}

/** One measured run as the bench prints it: its rate, the server's time per request, latency, failures, and who set the pace. */
export function runLine(run: Measured): string {
  return (
    `run "${run.name}": ${run.requestsPerSecond.toFixed(0)} req/s, server ${serverMicros(run).toFixed(0)} us/req busy, ${serverCpuMicros(run).toFixed(0)} us/req CPU, ` +
    `mean ${run.meanMs.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(1)} ms, ${run.errors + run.non2xx} failed; limit: ${limitOf(run)}`
  );
}

/** The table's heading line. */
export function printHeading(): void {
  out('');
  out(`${pad('figure', 38)}${pad('measured', 34)}${pad('floor (same run)', 44)}${pad('ratio / goal', 26)}met`);
}

/** Rows of the table, as a group answers them: figure, measured, floor, ratio against goal, and who set the pace of each run. */
export function printFigures(figures: readonly Figure[]): void {
  for (const figure of figures) {
    const unit = figure.goal.unit ?? '';
    const ratio = `${figure.value.toFixed(figure.value >= 100 ? 0 : 2)}${unit} ${figure.goal.op} ${figure.goal.target}${unit}`;
    out(`${pad(figure.figure, 38)}${pad(figure.measured, 34)}${pad(figure.floor, 44)}${pad(ratio, 26)}${met(figure) ? 'yes' : 'NO'}`);
    for (const run of figure.runs) out(`${''.padEnd(4)}${runLine(run)}`);
    if (figure.note) out(`${''.padEnd(4)}${figure.note}`);
  }
}

/** The load at the end and the goals missed, under the whole table. */
export function printSummary(figures: readonly Figure[]): void {
  const missed = figures.filter((figure) => !met(figure)).map((figure) => figure.figure);
  out('');
  out(
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} (2 cores shared: above ~1, other work competed with the runs)`,
  );
  out(missed.length === 0 ? 'every goal met' : `goals not met: ${missed.join('; ')}`);
}
