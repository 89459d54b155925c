import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import type { AuditRecord } from '../../src/domain/audit/audit.js';
import { Secret } from '../../src/domain/secret/secret.js';
import { type AuditDraft, AuditTrail, AuditUseCases } from '../../src/use-cases/audit.js';
import type { Caller } from '../../src/use-cases/session-context.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { SeededRandom } from '../_support/seeded-random.js';

function trail() {
  const log = new FaultyAuditLog(new MemoryAuditLog());
  const logger = new MemoryLogger();
  const clock = new ManualClock();
  return { log, logger, clock, trail: new AuditTrail({ log, clock, random: new SeededRandom(), logger }) };
}

function draft(subject: AuditTrail, operation: string, fields: Partial<AuditDraft> = {}): AuditDraft {
  return Object.assign(subject.start('req-1'), { operation, ...fields });
}

const all = async (log: FaultyAuditLog) => (await log.query({ limit: 500 })).items;

test('an operation that is not begun is recorded once, when it ends', async (t) => {
  const { log, trail: subject, clock } = trail();
  const health = draft(subject, 'health');
  clock.advance(30);
  await subject.finish(health, { status: 200 });
  t.deepEqual(await all(log), [{ id: health.id, at: health.at, requestId: 'req-1', operation: 'health', outcome: 'ok', status: 200 }]);
  t.is(health.at, clock.now() - 30, 'at is when the request arrived');
});

test('begin stores the record as pending, and finish completes that same record', async (t) => {
  const { log, trail: subject } = trail();
  const generate = draft(subject, 'keys.generate', { principal: 'alice', sessionRef: 'AbCdEf012345' });
  await subject.begin(generate);
  t.like((await all(log))[0], { id: generate.id, outcome: 'pending', status: 0, principal: 'alice' });
  generate.object = 'q83vEjRWeJCrze8SNFZ4kA==';
  await subject.finish(generate, { status: 200 });
  const records = await all(log);
  t.is(records.length, 1, 'exactly one record per operation');
  t.like(records[0], { id: generate.id, outcome: 'ok', status: 200, object: 'q83vEjRWeJCrze8SNFZ4kA==' });
});

test('begin refuses with AUDIT_UNAVAILABLE when the store cannot take the record, and says so in the log', async (t) => {
  const { log, logger, trail: subject } = trail();
  log.faults.down = true;
  await t.throwsAsync(subject.begin(draft(subject, 'keys.export')), { code: 'AUDIT_UNAVAILABLE' } as never);
  t.like(logger.lines[0], { level: 'error', message: 'audit record not stored', fields: { stage: 'begin', operation: 'keys.export' } });
});

test('a begun operation that succeeded is refused when its outcome cannot be stored; one that failed is only logged', async (t) => {
  const { log, logger, trail: subject } = trail();
  const succeeded = draft(subject, 'keys.export');
  const refused = draft(subject, 'keys.export');
  await subject.begin(succeeded);
  await subject.begin(refused);
  log.faults.failComplete = true;
  await t.throwsAsync(subject.finish(succeeded, { status: 200 }), { code: 'AUDIT_UNAVAILABLE' } as never);
  await subject.finish(refused, { status: 403, code: 'ACL_DENIED' });
  log.faults.failComplete = false;
  t.deepEqual(
    (await all(log)).map((r) => r.outcome),
    ['pending', 'pending'],
    'both stay pending: outcome never written',
  );
  t.is(logger.lines.filter((line) => line.fields.stage === 'finish').length, 2);
});

test('a sensitive success never begun is still not answered unless recorded; other losses are logged', async (t) => {
  const { log, logger, trail: subject } = trail();
  log.faults.down = true;
  await t.throwsAsync(subject.finish(draft(subject, 'keys.grant'), { status: 200 }), { code: 'AUDIT_UNAVAILABLE' } as never);
  await t.notThrowsAsync(subject.finish(draft(subject, 'keys.grant'), { status: 401, code: 'SESSION_UNKNOWN' }));
  await t.notThrowsAsync(subject.finish(draft(subject, 'health'), { status: 200 }));
  t.deepEqual(
    logger.lines.map((line) => line.fields.operation),
    ['keys.grant', 'keys.grant', 'health'],
  );
});

test('a draft must name its operation before it is stored', async (t) => {
  const { trail: subject } = trail();
  await t.throwsAsync(subject.begin(subject.start('req')), { message: /operation/ });
});

/** A real embedded key server: who may read the audit log is its answer (roles `admin`, `auditor`). */
const started = startEmbeddedKeyServer(
  {
    kind: 'embedded',
    seed: {
      principals: [
        { name: 'admin', kind: 'user', password: 'admin-pw', roles: ['admin'] },
        { name: 'audra', kind: 'user', password: 'audra-pw', roles: ['auditor'] },
        { name: 'alice', kind: 'user', password: 'alice-pw' },
      ],
    },
  },
  new ManualClock(Date.now()),
  new CryptoRandom(),
);
test.after.always(async () => (await started).keyServer.close());

async function callerFor(user: string): Promise<Caller> {
  const { keyServer } = await started;
  const login = await keyServer.login(user, new Secret(`${user}-pw`));
  const session = {
    ref: 'AbCdEf012345',
    identity: login.identity,
    token: login.token,
    kind: 'password' as const,
    createdAt: 0,
    expiresAt: 1,
  };
  return { session, key: 'k' };
}

async function reader() {
  const log = new FaultyAuditLog(new MemoryAuditLog());
  const records: AuditRecord[] = [1, 2, 3].map((at) => ({
    id: `${at}`.repeat(32),
    at,
    requestId: 'r',
    operation: 'health',
    outcome: 'ok',
    status: 200,
  }));
  for (const record of records) await log.append(record);
  return { log, records, audit: new AuditUseCases({ log, keyServer: (await started).keyServer }) };
}

test('a caller who may read the audit log gets whole pages, newest first, and single records', async (t) => {
  const { audit, records } = await reader();
  const admin = await callerFor('admin');
  const first = await audit.queryAudit(admin, { limit: 2 });
  t.deepEqual(first.items, [records[2], records[1]]);
  t.deepEqual((await audit.queryAudit(admin, { limit: 2, cursor: first.next! })).items, [records[0]]);
  t.deepEqual(await audit.getAuditRecord(admin, records[1]!.id), records[1]);
});

test('a caller without audit.read is ROLE_DENIED before the store is asked', async (t) => {
  const { audit, log, records } = await reader();
  log.faults.down = true;
  const alice = await callerFor('alice');
  await t.throwsAsync(audit.queryAudit(alice, {}), { code: 'ROLE_DENIED' } as never);
  await t.throwsAsync(audit.getAuditRecord(alice, records[0]!.id), { code: 'ROLE_DENIED' } as never);
});

test("an auditor reads the audit log: the key server's roles decide, not the user name", async (t) => {
  const { audit, records } = await reader();
  const audra = await callerFor('audra');
  t.is((await audit.queryAudit(audra, {})).items.length, records.length);
  t.deepEqual(await audit.getAuditRecord(audra, records[0]!.id), records[0]);
});

test('an unknown or malformed id is NOT_FOUND; a malformed query is BAD_REQUEST', async (t) => {
  const { audit } = await reader();
  const admin = await callerFor('admin');
  for (const id of ['f'.repeat(32), 'nope', '../etc'])
    await t.throwsAsync(audit.getAuditRecord(admin, id), { code: 'NOT_FOUND' } as never, id);
  await t.throwsAsync(audit.queryAudit(admin, { limit: 0 }), { code: 'BAD_REQUEST' } as never);
  await t.throwsAsync(audit.queryAudit(admin, { cursor: 'x' }), { code: 'BAD_REQUEST' } as never);
});

test('an unreadable store is AUDIT_UNAVAILABLE, never an empty list, even when the failure is a bug', async (t) => {
  const { audit, log, records } = await reader();
  const admin = await callerFor('admin');
  log.faults.down = true;
  await t.throwsAsync(audit.queryAudit(admin, {}), { code: 'AUDIT_UNAVAILABLE' } as never);
  await t.throwsAsync(audit.getAuditRecord(admin, records[0]!.id), { code: 'AUDIT_UNAVAILABLE' } as never);
  log.faults.down = false;
  log.faults.crashReads = true;
  await t.throwsAsync(audit.queryAudit(admin, {}), { code: 'AUDIT_UNAVAILABLE' } as never);
  await t.throwsAsync(audit.getAuditRecord(admin, records[0]!.id), { code: 'AUDIT_UNAVAILABLE' } as never);
});
