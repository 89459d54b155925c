import test from 'ava';
import fc from 'fast-check';
import { MIN_ROTATION_PERIOD_MS, parseIsoDuration } from '../../src/wire/iso-duration.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

for (const [text, ms] of [
  ['P90D', 90 * DAY],
  ['P1W', 7 * DAY],
  ['PT36H', 36 * HOUR],
  ['P1DT12H', DAY + 12 * HOUR],
  ['P2W3D', 17 * DAY],
  ['PT1H30M15S', HOUR + 30 * 60_000 + 15_000],
  ['P0D', 0],
  ['PT86400S', DAY],
] as const) {
  test(`reads ${text} as ${ms} ms`, (t) => {
    t.is(parseIsoDuration(text), ms);
  });
}

for (const text of [
  '',
  'P',
  'PT',
  'P1Y',
  'P1M',
  'P1Y2M',
  'P1DT',
  'p1d',
  'P1d',
  '1D',
  'P-1D',
  'P1.5D',
  'PT0.5S',
  'P1D ',
  ' P1D',
  'P1H',
  'PT1D',
  'P1D1W',
  'P1234567890D',
  'P1DT1S1M',
]) {
  test(`refuses ${JSON.stringify(text)}`, (t) => {
    t.is(parseIsoDuration(text), undefined);
  });
}

test('refuses a value that is not a string', (t) => {
  t.is(parseIsoDuration(90 as unknown as string), undefined);
});

test('the shortest rotation period is one day', (t) => {
  t.is(parseIsoDuration('P1D'), MIN_ROTATION_PERIOD_MS);
  t.true((parseIsoDuration('PT23H59M59S') ?? Number.POSITIVE_INFINITY) < MIN_ROTATION_PERIOD_MS);
});

test('any sum of fixed-length units is read back exactly', (t) => {
  const count = fc.integer({ min: 0, max: 999 });
  fc.assert(
    fc.property(count, count, count, count, count, (w, d, h, m, s) => {
      const text = `P${w}W${d}DT${h}H${m}M${s}S`;
      return parseIsoDuration(text) === w * 7 * DAY + d * DAY + h * HOUR + m * 60_000 + s * 1000;
    }),
  );
  t.pass();
});

test('never throws, whatever the text', (t) => {
  fc.assert(
    fc.property(fc.string(), (text) => {
      const ms = parseIsoDuration(text);
      return ms === undefined || Number.isSafeInteger(ms);
    }),
  );
  t.pass();
});
