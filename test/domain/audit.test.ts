import test from 'ava';
import fc from 'fast-check';
import { AuditUnavailableError } from '../../src/domain/audit/audit.errors.js';
import {
  type AuditOutcome,
  type AuditRecord,
  aclEntryObject,
  completeRecord,
  isSensitiveOperation,
  newAuditId,
  outcomeForStatus,
} from '../../src/domain/audit/audit.js';
import {
  compareNewestFirst,
  decodeAuditCursor,
  encodeAuditCursor,
  matchesAuditQuery,
  pageOf,
  resolveAuditQuery,
} from '../../src/domain/audit/audit-query.js';
import { SeededRandom } from '../_support/seeded-random.js';

const random = new SeededRandom('audit');
const id = () => newAuditId(random);

const outcomes: [number, AuditOutcome][] = [
  [200, 'ok'],
  [201, 'ok'],
  [204, 'ok'],
  [299, 'ok'],
  [401, 'denied'],
  [403, 'denied'],
  [301, 'error'],
  [400, 'error'],
  [404, 'error'],
  [409, 'error'],
  [500, 'error'],
  [502, 'error'],
  [503, 'error'],
];
for (const [status, outcome] of outcomes) {
  test(`status ${status} is outcome ${outcome}`, (t) => {
    t.is(outcomeForStatus(status), outcome);
  });
}

test('the six operations that change state, mint a session or release a key are sensitive; health is not', (t) => {
  for (const operation of ['login', 'logout', 'keys.generate', 'keys.export', 'keys.grant', 'keys.revoke'])
    t.true(isSensitiveOperation(operation), operation);
  for (const operation of ['health', 'audit.query', 'keys']) t.false(isSensitiveOperation(operation), operation);
});

test('a record id is 128 random bits in lower-case hex', (t) => {
  const ids = new Set(Array.from({ length: 500 }, () => newAuditId(random)));
  t.is(ids.size, 500);
  for (const value of ids) t.regex(value, /^[0-9a-f]{32}$/);
});

test('an ACL change names the ttag and the grantee, split at the first space', (t) => {
  t.is(aclEntryObject('q83vEjRWeJCrze8SNFZ4kA==', 'bob smith'), 'q83vEjRWeJCrze8SNFZ4kA== bob smith');
});

test('a cursor reads back as the position it was made from', (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.uint8Array({ minLength: 16, maxLength: 16 }), (at, bytes) => {
      const position = { at, id: Buffer.from(bytes).toString('hex') };
      const cursor = encodeAuditCursor(position);
      return /^[A-Za-z0-9_-]+$/.test(cursor) && JSON.stringify(decodeAuditCursor(cursor)) === JSON.stringify(position);
    }),
  );
  t.pass();
});

const text = (value: string) => Buffer.from(value).toString('base64url');
const hex = 'a'.repeat(32);
const badCursors: [string, string][] = [
  ['empty', ''],
  ['not base64url', '!!!!'],
  ['padded', `${text(`5.${hex}`)}=`],
  ['no separator', text(`5${hex}`)],
  ['a negative time', text(`-5.${hex}`)],
  ['a time with a leading zero', text(`05.${hex}`)],
  ['a time beyond safe integers', text(`99999999999999999.${hex}`)],
  ['an upper-case id', text(`5.${'A'.repeat(32)}`)],
  ['a short id', text(`5.${'a'.repeat(31)}`)],
  ['trailing text', text(`5.${hex}x`)],
];
for (const [name, cursor] of badCursors) {
  test(`a cursor that is ${name} is BAD_REQUEST`, (t) => {
    t.throws(() => decodeAuditCursor(cursor), { code: 'BAD_REQUEST', message: /^cursor:/ } as never);
  });
}

test('a query defaults to 100 records and refuses limits outside 1..500 and inverted ranges', (t) => {
  t.is(resolveAuditQuery({}).limit, 100);
  t.is(resolveAuditQuery({ limit: 1 }).limit, 1);
  t.is(resolveAuditQuery({ limit: 500 }).limit, 500);
  for (const limit of [0, 501, -1, 2.5, Number.NaN]) t.throws(() => resolveAuditQuery({ limit }), { message: /^limit:/ });
  t.throws(() => resolveAuditQuery({ from: 2, to: 1 }), { message: /^from:/ });
  t.throws(() => resolveAuditQuery({ from: 1.5 }), { message: /^from:/ });
  t.deepEqual(resolveAuditQuery({ from: 1, to: 1, cursor: encodeAuditCursor({ at: 7, id: hex }) }), {
    from: 1,
    to: 1,
    limit: 100,
    after: { at: 7, id: hex },
  });
});

test('newest first orders by time, then by id, both descending', (t) => {
  const [low, high] = [id(), id()].sort();
  const positions = [
    { at: 1, id: low! },
    { at: 2, id: low! },
    { at: 1, id: high! },
    { at: 2, id: high! },
  ];
  t.deepEqual([...positions].sort(compareNewestFirst), [positions[3], positions[1], positions[2], positions[0]]);
});

test('a record after the cursor is one that sorts strictly after it', (t) => {
  const record = { id: hex, at: 10, requestId: 'r', operation: 'health', outcome: 'ok', status: 200 } as AuditRecord;
  const query = (at: number, other: string) => resolveAuditQuery({ cursor: encodeAuditCursor({ at, id: other }) });
  t.true(matchesAuditQuery(record, query(11, hex)), 'older');
  t.true(matchesAuditQuery(record, query(10, 'b'.repeat(32))), 'as old, smaller id');
  t.false(matchesAuditQuery(record, query(10, hex)), 'the cursor record itself');
  t.false(matchesAuditQuery(record, query(10, '0'.repeat(32))), 'as old, larger id');
  t.false(matchesAuditQuery(record, query(9, hex)), 'newer');
});

test('a page keeps limit records and points its cursor at the last one kept', (t) => {
  const records = [3, 2, 1].map((at) => ({ id: id(), at, requestId: 'r', operation: 'health', outcome: 'ok', status: 200 }) as AuditRecord);
  t.deepEqual(pageOf(records, 3), { items: records });
  const page = pageOf(records, 2);
  t.deepEqual(page.items, records.slice(0, 2));
  t.deepEqual(decodeAuditCursor(page.next!), { at: 2, id: records[1]!.id });
});

test('completing a record replaces given fields and leaves absent ones as they were', (t) => {
  const pending: AuditRecord = {
    id: hex,
    at: 1,
    requestId: 'r',
    principal: 'alice',
    operation: 'keys.generate',
    outcome: 'pending',
    status: 0,
  };
  t.deepEqual(completeRecord(pending, { outcome: 'ok', status: 200, object: 'ttag', code: undefined, sessionRef: undefined }), {
    ...pending,
    outcome: 'ok',
    status: 200,
    object: 'ttag',
  });
  t.false('code' in completeRecord(pending, { outcome: 'ok', status: 200 }));
});

test('AuditUnavailableError is retryable for the whole process after 5 seconds', (t) => {
  t.like(new AuditUnavailableError(), { code: 'AUDIT_UNAVAILABLE', retryable: true, scope: 'process', retryAfterSeconds: 5 });
});
