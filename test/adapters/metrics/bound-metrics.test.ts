import test from 'ava';
import { Counter, Histogram, Registry } from 'prom-client';
import { BoundCounter, BoundHistogram } from '../../../src/adapters/metrics/bound-metrics.js';

const buckets = [0.001, 0.005, 0.01, 0.5, 1];

test('a bound histogram is scraped exactly as prom-client scrapes its own', async (t) => {
  const ours = new Registry();
  const theirs = new Registry();
  const options = { name: 'x_seconds', help: 'x by op and outcome', labelNames: ['op', 'outcome'], buckets };
  const bound = new BoundHistogram({ ...options, registers: [ours] });
  const reference = new Histogram({ ...options, registers: [theirs] });
  const observations: [string, string, number][] = [
    ['keys.read', 'ok', 0.0004],
    ['keys.read', 'ok', 0.007],
    ['keys.read', 'error', 0.3],
    ['session.read', 'ok', 2.5],
    ['keys.read', 'ok', 1],
  ];
  for (const [op, outcome, value] of observations) {
    bound.labels(op, outcome).observe(value);
    reference.labels(op, outcome).observe(value);
  }
  t.is(await ours.metrics(), await theirs.metrics());
  // The JSON form too, but for prom-client's exemplar members (null: exemplars are off).
  const withoutExemplars = (json: unknown) => JSON.parse(JSON.stringify(json, (key, value) => (key === 'exemplar' ? undefined : value)));
  t.deepEqual(withoutExemplars(await ours.getMetricsAsJSON()), withoutExemplars(await theirs.getMetricsAsJSON()));
  t.throws(() => bound.labels('keys.read', 'ok').observe(Number.NaN), { instanceOf: TypeError });
});

test('a bound counter is scraped exactly as prom-client scrapes its own, and a reset zeroes it', async (t) => {
  const ours = new Registry();
  const theirs = new Registry();
  const options = { name: 'y_total', help: 'y by op and status', labelNames: ['op', 'status'] };
  const bound = new BoundCounter({ ...options, registers: [ours] });
  const reference = new Counter({ ...options, registers: [theirs] });
  for (const [op, status] of [
    ['keys.read', '200'],
    ['keys.read', '200'],
    ['keys.read', '404'],
  ] as const) {
    bound.labels(op, status).inc();
    reference.labels(op, status).inc();
  }
  t.is(await ours.metrics(), await theirs.metrics());
  const kept = bound.labels('keys.read', '200');
  ours.resetMetrics();
  kept.inc();
  t.regex(await ours.metrics(), /y_total\{op="keys\.read",status="200"\} 1\n/);
});
