import test from 'ava';
import type { Context } from 'koa';
import { MemoryAuditLog } from '../../../src/adapters/audit-log/memory-audit-log.js';
import { ManualClock } from '../../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../../src/adapters/logger/memory-logger.js';
import { BadRequestError } from '../../../src/domain/errors/index.js';
import { AuditScope } from '../../../src/transports/koa/audit/audit-scope.js';
import type { GatewayState } from '../../../src/transports/koa/state.js';
import { AuditTrail } from '../../../src/use-cases/audit.js';
import { FaultyAuditLog } from '../../_support/faulty-audit-log.js';
import { SeededRandom } from '../../_support/seeded-random.js';

/** A trail over a switchable store, and the scope of a request whose route named `operation`. */
function setup(operation = 'keys.export') {
  const log = new FaultyAuditLog(new MemoryAuditLog());
  const trail = new AuditTrail({ log, clock: new ManualClock(), random: new SeededRandom(), logger: new MemoryLogger() });
  const ctx = {
    state: { requestId: 'req-1', clientKey: '127.0.0.1' },
    req: { socket: { remoteAddress: '127.0.0.1' } },
  } as unknown as Context & { state: GatewayState };
  const scope = AuditScope.open(trail, ctx, operation);
  return { log, trail, ctx, scope };
}

const badKey = async (): Promise<string> => {
  throw new BadRequestError('clientPubKey: not a point on P-256');
};

test('the scope opened at route entry is the request state the request step finishes', (t) => {
  const { ctx, scope } = setup();
  t.is(ctx.state.audit, scope);
  t.like(scope.draft, { operation: 'keys.export', requestId: 'req-1', clientAddress: '127.0.0.1' });
});

test('a release passes its gate only once its pending record is stored', async (t) => {
  const { log, scope } = setup();
  const events: string[] = [];
  const result = await scope.perform('release', { object: 'k' }, async () => {
    events.push('first half');
    await scope.recorded();
    events.push(`released, ${(await log.query({ limit: 10 })).items.length} record(s) stored`);
    return 'material';
  });
  t.is(result, 'material');
  t.deepEqual(events, ['first half', 'released, 1 record(s) stored']);
  const { items } = await log.query({ limit: 10 });
  t.like(items[0], { operation: 'keys.export', object: 'k', outcome: 'pending' });
});

test('a refused record shuts the gate and is the failure answered, even when the first half failed too', async (t) => {
  const { log, scope } = setup();
  log.faults.down = true;
  const events: string[] = [];
  await t.throwsAsync(
    scope.perform('release', {}, async () => {
      await scope.recorded().catch((error: unknown) => {
        events.push('gate refused');
        throw error;
      });
      events.push('released');
    }),
    { code: 'AUDIT_UNAVAILABLE' } as never,
  );
  t.deepEqual(events, ['gate refused']);
  const down = setup();
  down.log.faults.down = true;
  await t.throwsAsync(down.scope.perform('release', {}, badKey), { code: 'AUDIT_UNAVAILABLE' } as never);
  const up = setup();
  await t.throwsAsync(
    up.scope.perform('release', {}, badKey),
    { code: 'BAD_REQUEST' } as never,
    'with the store up, the first half reports its own failure',
  );
});

test('a release that skipped its gate is still not answered without its record', async (t) => {
  const { log, scope } = setup();
  log.faults.down = true;
  await t.throwsAsync(
    scope.perform('release', {}, async () => 'material'),
    { code: 'AUDIT_UNAVAILABLE' } as never,
  );
});

test('a write is not performed when its record is refused', async (t) => {
  const { log, scope } = setup('keys.grant');
  log.faults.down = true;
  let performed = false;
  await t.throwsAsync(
    scope.perform('write', {}, async () => {
      performed = true;
    }),
    { code: 'AUDIT_UNAVAILABLE' } as never,
  );
  t.false(performed);
});

test('a read stores nothing before it runs and has no gate to pass', async (t) => {
  const { log, scope } = setup('keys.read');
  await scope.perform('read', { object: 'k' }, async () => {
    t.is((await log.query({ limit: 10 })).items.length, 0);
  });
  t.is(scope.draft.object, 'k');
  await t.throwsAsync(scope.recorded(), { message: 'the route is no release' });
});

const KID = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';
const inline = { withinRequest: <T>(work: () => Promise<T>) => work(), failed: () => undefined };

test("a signing key's type, algorithm and kid a handler notes reach the stored record: a write's pending entry and its outcome", async (t) => {
  const { log, scope, ctx } = setup('crypto.sign');
  await scope.perform('write', { object: 'k', alias: 'tokens' }, async () => {
    scope.note({ keyType: 'ec-p256', alg: 'ES256', kid: KID, version: 3 });
  });
  ctx.status = 200;
  await scope.finish(inline);
  t.like(await log.get(scope.draft.id), {
    operation: 'crypto.sign',
    object: 'k',
    alias: 'tokens',
    outcome: 'ok',
    status: 200,
    version: 3,
    keyType: 'ec-p256',
    alg: 'ES256',
    kid: KID,
  });
  const { entries } = await log.readChain();
  t.like(
    entries.find((entry) => entry.entry === 'outcome'),
    { keyType: 'ec-p256', alg: 'ES256', kid: KID },
    'the completion carries what the handler learnt once the pending entry was stored',
  );
  t.is(entries.find((entry) => entry.entry === 'pending')?.kid, undefined);
});

test("a read's signing fields, noted before or while it runs, are its one record's", async (t) => {
  const { log, scope, ctx } = setup('keys.public-key');
  await scope.perform('read', { object: 'k', keyType: 'rsa-2048' }, async () => {
    scope.note({ alg: 'PS512', kid: KID, version: 1 });
  });
  ctx.status = 200;
  await scope.finish(inline);
  t.like(await log.get(scope.draft.id), { operation: 'keys.public-key', outcome: 'ok', keyType: 'rsa-2048', alg: 'PS512', kid: KID });
});

test('a noted type, algorithm or kid outside its rule is left out of the record, the others kept', async (t) => {
  const { log, scope, ctx } = setup('crypto.sign.verify');
  await scope.perform('read', { object: 'k' }, async () => {
    scope.note({ keyType: 'ec-p256', alg: 'none', kid: 'not a kid\u0000' });
  });
  ctx.status = 200;
  await scope.finish(inline);
  const record = await log.get(scope.draft.id);
  t.like(record, { keyType: 'ec-p256' });
  t.false(record !== undefined && ('alg' in record || 'kid' in record), JSON.stringify(record));
});

test("a context a write notes is in its pending entry and its outcome; a batch's contexts are kept distinct, at most 16", async (t) => {
  const { log, scope, ctx } = setup('crypto.decrypt');
  // A batch of 40 items naming 20 distinct contexts, one of them refused by §4.5b item 1 (a NUL).
  const named: Record<string, string>[] = Array.from({ length: 40 }, (_, i) => ({ tenant: `t${i % 20}` }));
  named.splice(3, 0, { tenant: 'bad\u0000' }, {});
  await scope.perform('write', { object: 'k', context: { tenant: 'acme' } }, async () => {
    scope.note({ items: 42, contexts: named, contextsOmitted: 1 });
  });
  ctx.status = 200;
  await scope.finish(inline);
  const record = await log.get(scope.draft.id);
  t.like(record, { context: { tenant: 'acme' }, contextsOmitted: 5 });
  t.deepEqual(
    record?.contexts,
    Array.from({ length: 16 }, (_, i) => ({ tenant: `t${i}` })),
  );
  const { entries } = await log.readChain();
  t.like(
    entries.find((entry) => entry.entry === 'pending'),
    { context: { tenant: 'acme' } },
  );
  t.like(
    entries.find((entry) => entry.entry === 'outcome'),
    { context: { tenant: 'acme' }, contextsOmitted: 5 },
  );
});

test('a noted context outside §4.5b item 1, or an empty one, is left out of the record', async (t) => {
  for (const context of [
    {},
    { 'two words': 'x' },
    { tenant: 'x'.repeat(257) },
    Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`m${i}`, ''])),
  ]) {
    const { log, scope, ctx } = setup('crypto.encrypt');
    await scope.perform('read', { object: 'k', context }, async () => undefined);
    ctx.status = 200;
    await scope.finish(inline);
    const record = await log.get(scope.draft.id);
    t.false(record === undefined || 'context' in record, JSON.stringify(record));
  }
});
