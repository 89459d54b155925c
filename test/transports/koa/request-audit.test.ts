import test from 'ava';
import type { Context } from 'koa';
import { MemoryAuditLog } from '../../../src/adapters/audit-log/memory-audit-log.js';
import { ManualClock } from '../../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../../src/adapters/logger/memory-logger.js';
import { BadRequestError } from '../../../src/domain/errors/index.js';
import { nameAuditedOperation, performAudited, releaseWhenRecorded } from '../../../src/transports/koa/request-audit.js';
import type { GatewayState } from '../../../src/transports/koa/state.js';
import { AuditTrail } from '../../../src/use-cases/audit.js';
import type { Prepared } from '../../../src/use-cases/prepared.js';
import { FaultyAuditLog } from '../../_support/faulty-audit-log.js';
import { SeededRandom } from '../../_support/seeded-random.js';

/** A trail over a switchable store, and a request that named `operation`. */
function setup(operation = 'keys.export') {
  const log = new FaultyAuditLog(new MemoryAuditLog());
  const trail = new AuditTrail({ log, clock: new ManualClock(), random: new SeededRandom(), logger: new MemoryLogger() });
  const ctx = {
    state: { requestId: 'req-1', clientKey: '127.0.0.1' },
    req: { socket: { remoteAddress: '127.0.0.1' } },
  } as unknown as Context & {
    state: GatewayState;
  };
  nameAuditedOperation(trail, ctx, operation);
  return { log, trail, ctx };
}

/** A first half that records what happened to it. */
function prepared(events: string[]): Prepared<string> {
  return {
    release: async () => {
      events.push('released');
      return 'material';
    },
    abandon: () => void events.push('abandoned'),
  };
}

test('a two-phase operation is released only after its pending record is stored', async (t) => {
  const { log, trail, ctx } = setup();
  const events: string[] = [];
  const result = await releaseWhenRecorded(trail, ctx, { object: 'k' }, async () => {
    events.push(`prepared, ${(await log.query({ limit: 10 })).items.length} record(s) stored`);
    return prepared(events);
  });
  t.is(result, 'material');
  t.is(events.at(-1), 'released');
  const { items } = await log.query({ limit: 10 });
  t.like(items[0], { operation: 'keys.export', object: 'k', outcome: 'pending' });
});

test('a refused record abandons the first half and is the failure answered, even when the first half failed too', async (t) => {
  const { log, trail, ctx } = setup();
  log.faults.down = true;
  const events: string[] = [];
  await t.throwsAsync(
    releaseWhenRecorded(trail, ctx, {}, async () => prepared(events)),
    { code: 'AUDIT_UNAVAILABLE' } as never,
  );
  await new Promise((turn) => setImmediate(turn));
  t.deepEqual(events, ['abandoned']);
  const badKey = async (): Promise<Prepared<string>> => {
    throw new BadRequestError('clientPubKey: not a point on P-256');
  };
  await t.throwsAsync(releaseWhenRecorded(trail, setup().ctx, {}, badKey), { code: 'AUDIT_UNAVAILABLE' } as never);
  const up = setup();
  await t.throwsAsync(
    releaseWhenRecorded(up.trail, up.ctx, {}, badKey),
    { code: 'BAD_REQUEST' } as never,
    'with the store up, the first half reports its own failure',
  );
});

test('a sensitive operation is not performed when its record is refused', async (t) => {
  const { log, trail, ctx } = setup('keys.grant');
  log.faults.down = true;
  let performed = false;
  await t.throwsAsync(
    performAudited(trail, ctx, {}, async () => {
      performed = true;
    }),
    { code: 'AUDIT_UNAVAILABLE' } as never,
  );
  t.false(performed);
});
