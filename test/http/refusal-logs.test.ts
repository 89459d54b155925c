import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { RateLimitedLogger } from '../../src/adapters/logger/rate-limited-logger.js';
import { signIn } from '../_support/api-client.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { startGateway } from '../_support/gateway.js';

async function setup(t: import('ava').ExecutionContext, limited = true) {
  const clock = new ManualClock(Date.now());
  const lines = new MemoryLogger();
  const audit = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startGateway(
    t,
    {},
    { clock, logger: limited ? new RateLimitedLogger(lines, clock, { windowMs: 10_000 }) : lines, auditLog: audit },
  );
  const alice = await signIn(gw, 'alice');
  lines.lines.length = 0;
  const diagnostics = () => lines.lines.filter((line) => line.level !== 'info');
  const access = () => lines.lines.filter((line) => line.message === 'request');
  return { clock, lines, audit, alice, diagnostics, access };
}

test('one refused operation logs one diagnostic line and one access line, not a second warning', async (t) => {
  const { audit, alice, diagnostics, access } = await setup(t, false);
  audit.faults.down = true;
  const refused = await alice.post('/api/keys', {});
  t.is(refused.status, 503);
  t.is(diagnostics().length, 1, JSON.stringify(diagnostics()));
  t.like(diagnostics()[0], { level: 'error', message: 'audit record not stored' });
  t.is(access().length, 1);
  t.like(access()[0]!.fields, { operation: 'keys.create', status: 503, code: 'AUDIT_UNAVAILABLE' });
});

test('a burst of identical failures is written once per window, then with the count left out', async (t) => {
  const { clock, audit, alice, diagnostics, access } = await setup(t);
  audit.faults.down = true;
  for (let i = 0; i < 20; i += 1) t.is((await alice.post('/api/keys', {})).status, 503);
  t.is(diagnostics().length, 1, 'one line for the burst');
  t.is(access().length, 20, 'every request keeps its access line');
  clock.advance(10_000);
  await alice.post('/api/keys', {});
  t.is(diagnostics().length, 2);
  t.like(diagnostics()[1]!.fields, { suppressed: 19 });
});

test('different failures are not merged', async (t) => {
  const clock = new ManualClock(0);
  const lines = new MemoryLogger();
  const logger = new RateLimitedLogger(lines, clock);
  logger.warn('a', { code: 'X' });
  logger.warn('a', { code: 'Y' });
  logger.error('a', { code: 'X' });
  logger.warn('a', { code: 'X' });
  logger.info('a', { code: 'X' });
  logger.info('a', { code: 'X' });
  t.deepEqual(
    lines.lines.map((line) => `${line.level}:${line.fields.code}`),
    ['warn:X', 'warn:Y', 'error:X', 'info:X', 'info:X'],
  );
});
