import test from 'ava';
import type { AuditRecordView } from '../../src/client/index.js';
import { MOST_BARS, stepInWords, timeLabel, timeScale } from '../../src/console/screens/audit-scale.js';

const record = (at: string, outcome: AuditRecordView['outcome'] = 'ok'): AuditRecordView => ({
  id: at,
  at,
  requestId: 'r',
  operation: 'keys.create',
  outcome,
  status: 200,
});

test('records within a few minutes are counted per minute and outcome, an empty minute kept as an empty bar', (t) => {
  const scale = timeScale([
    record('2026-11-27T10:02:59.900Z'),
    record('2026-11-27T10:00:01.000Z', 'denied'),
    record('2026-11-27T10:02:00.000Z'),
    record('2026-11-27T10:00:59.999Z'),
    record('2026-11-27T10:02:30.000Z', 'error'),
  ])!;
  t.is(stepInWords(scale.step), '1 minute');
  t.deepEqual(
    scale.bins.map((bin) => [new Date(bin.start).toISOString(), bin.counts, bin.total]),
    [
      ['2026-11-27T10:00:00.000Z', { ok: 1, denied: 1, error: 0, pending: 0 }, 2],
      ['2026-11-27T10:01:00.000Z', { ok: 0, denied: 0, error: 0, pending: 0 }, 0],
      ['2026-11-27T10:02:00.000Z', { ok: 2, denied: 0, error: 1, pending: 0 }, 3],
    ],
  );
  t.is(scale.most, 3);
  t.deepEqual(
    scale.labelled.map((index) => timeLabel(scale.bins[index]!.start, scale)),
    ['10:00', '10:01', '10:02'],
  );
  t.is(timeScale([]), undefined);
});

test('a page spread over hours or days draws on round wider bars, at most MOST_BARS of them, with at most six labels', (t) => {
  const hours = timeScale([record('2026-11-27T08:07:00Z'), record('2026-11-27T17:55:00Z')])!;
  t.is(stepInWords(hours.step), '10 minutes');
  t.true(hours.bins.length <= MOST_BARS);
  t.is(timeLabel(hours.bins[0]!.start, hours), '08:00');
  t.true(hours.labelled.length <= 6 && hours.labelled.length >= 2, String(hours.labelled.length));

  const days = timeScale([record('2026-11-01T23:00:00Z'), record('2026-11-03T01:00:00Z')])!;
  t.is(stepInWords(days.step), '30 minutes');
  t.is(timeLabel(days.bins[0]!.start, days), '11-01 23:00', 'across days a label names the day');

  const weeks = timeScale([record('2026-09-01T00:00:00Z'), record('2026-11-27T00:00:00Z')])!;
  t.is(stepInWords(weeks.step), '2 days');
  t.true(weeks.bins.length <= MOST_BARS);
  t.is(timeLabel(weeks.bins[0]!.start, weeks), '08-31');
  t.is(
    weeks.bins.reduce((sum, bin) => sum + bin.total, 0),
    2,
  );
});
