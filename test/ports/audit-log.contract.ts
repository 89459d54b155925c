import fc from 'fast-check';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { AUDIT_RECORD_OUTCOMES, type AuditRecord, newAuditId } from '../../src/domain/audit/audit.js';
import type { AuditChainPages, AuditEntry } from '../../src/domain/audit/audit-entry.js';
import { type AuditQuery, compareNewestFirst, encodeAuditCursor } from '../../src/domain/audit/audit-query.js';
import { AuditLogVerifier, inChainOrder, verifyAuditLog } from '../../src/domain/audit/audit-verify.js';
import type { AuditLog } from '../../src/ports/audit-log.port.js';
import { type AuditTestKeys, trusted } from '../_support/audit-chain.js';
import { testUnless } from '../_support/skip.js';

/** A fresh, empty log, and how to make it unable to take or read records. */
export interface AuditLogUnderTest {
  readonly log: AuditLog;
  /** Closes the database, stops the server, ...: afterwards every call must fail. */
  breakStore(): Promise<void>;
}

export interface AuditLogContractOptions {
  /** Set when the store cannot be had here: each test is registered as skipped and the reason printed. */
  readonly skip?: string | undefined;
  /** Runs of the pagination property (each on a fresh log). */
  readonly propertyRuns?: number;
  /** Set for a store opened with a chain under these keys (checkpoints every 3 entries). */
  readonly chainKeys?: AuditTestKeys;
}

const random = new CryptoRandom();
const T0 = Date.UTC(2026, 0, 1, 12);

/** A record with plausible values; an override of `undefined` leaves that field out. */
export function auditRecord(overrides: Partial<AuditRecord> = {}): AuditRecord {
  const record = {
    id: newAuditId(random),
    at: T0,
    requestId: Buffer.from(random.bytes(8)).toString('hex'),
    principal: 'alice',
    sessionRef: 'AbCdEf012345',
    operation: 'keys.export',
    object: 'q83vEjRWeJCrze8SNFZ4kA==',
    outcome: 'ok',
    status: 200,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as unknown as AuditRecord;
}

async function appendAll(log: AuditLog, records: readonly AuditRecord[]): Promise<void> {
  for (const record of records) await log.append(record);
}

/** Every page of a query, following `next` until it is absent. */
export async function allPages(log: AuditLog, query: AuditQuery): Promise<AuditRecord[]> {
  const seen: AuditRecord[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10_000; pages += 1) {
    const page = await log.query({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    seen.push(...page.items);
    if (page.next === undefined) return seen;
    cursor = page.next;
  }
  throw new Error('pagination did not end');
}

const ids = (records: readonly AuditRecord[]) => records.map((r) => r.id);
const entryKey = (entry: AuditEntry) => `${entry.writer ?? '-'}/${entry.seq ?? '-'}/${entry.id}/${entry.entry}/${entry.at}`;
const bySeqAndWriter = <T extends { writer: string; seq: number }>(items: readonly T[]) =>
  [...items].sort((a, b) => (a.writer < b.writer ? -1 : a.writer > b.writer ? 1 : a.seq - b.seq));

async function allChainPages(chain: AuditChainPages): Promise<(readonly AuditEntry[])[]> {
  const pages: (readonly AuditEntry[])[] = [];
  for await (const page of chain.pages) pages.push(page);
  return pages;
}
const newestFirst = (records: readonly AuditRecord[]) => [...records].sort(compareNewestFirst);

/** The AuditLog contract (src/ports/audit-log.port.ts), run against one adapter. */
export function auditLogContract(name: string, open: () => Promise<AuditLogUnderTest>, options: AuditLogContractOptions = {}): void {
  const title = (behaviour: string) => `${name} audit log: ${behaviour}`;
  const check = testUnless(options.skip);

  check(title('gives back an appended record exactly, absent fields absent'), async (t) => {
    const { log } = await open();
    const full = auditRecord({ code: 'ACL_DENIED', outcome: 'denied', status: 403 });
    const bare = auditRecord({ principal: undefined, sessionRef: undefined, object: undefined, operation: 'health' });
    await appendAll(log, [full, bare]);
    t.deepEqual(await log.get(full.id), full);
    t.deepEqual(await log.get(bare.id), bare);
    t.is(await log.get(newAuditId(random)), undefined);
    await log.close();
  });

  check(title("keeps the key version and a batch's item and failure counts, given in the record or in its completion"), async (t) => {
    const { log } = await open();
    const batch = auditRecord({ operation: 'crypto.encrypt', version: 3, items: 100, failures: 4 });
    const pending = auditRecord({ operation: 'keys.rotate', outcome: 'pending', status: 0 });
    await appendAll(log, [batch, pending]);
    t.true(await log.complete(pending.id, { outcome: 'ok', status: 200, version: 2 }));
    t.deepEqual(await log.get(batch.id), batch);
    t.deepEqual(await log.get(pending.id), { ...pending, outcome: 'ok', status: 200, version: 2 });
    await log.close();
  });

  check(title("keeps a batch's keys and versions, and how many more it named"), async (t) => {
    const { log } = await open();
    const keys = [{ ttag: 'dGFnLW9uZQ==', version: 1 }, { ttag: 'dGFnLXR3bw==', version: 3 }, { ttag: 'dGFnLXRocmVl' }];
    const batch = auditRecord({ operation: 'crypto.decrypt', items: 50, failures: 2, keys, keysOmitted: 7 });
    const single = auditRecord({ operation: 'crypto.mac', items: 1, failures: 0, keys: [{ ttag: 'dGFnLW9uZQ==', version: 2 }] });
    await appendAll(log, [batch, single]);
    t.deepEqual(await log.get(batch.id), batch);
    t.deepEqual(await log.get(single.id), single);
    await log.close();
  });

  check(title("keeps a signing key's type, algorithm and kid, given in the record or in its completion"), async (t) => {
    const { log } = await open();
    const kid = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';
    const signed = auditRecord({ operation: 'crypto.sign', version: 2, keyType: 'ec-p256', alg: 'ES256', kid });
    const lone = auditRecord({ operation: 'keys.public-key', kid });
    const pending = auditRecord({ operation: 'crypto.sign-jwt', outcome: 'pending', status: 0, alias: 'tokens' });
    await appendAll(log, [signed, lone, pending]);
    t.true(await log.complete(pending.id, { outcome: 'ok', status: 200, version: 1, keyType: 'rsa-2048', alg: 'PS384', kid }));
    t.deepEqual(await log.get(signed.id), signed);
    t.deepEqual(await log.get(lone.id), lone);
    const completed = { ...pending, outcome: 'ok', status: 200, version: 1, keyType: 'rsa-2048', alg: 'PS384', kid };
    t.deepEqual(await log.get(pending.id), completed);
    t.deepEqual(
      (await log.query({ operation: 'crypto.sign-jwt' })).items,
      [completed],
      'a query answers them as a read of the record does',
    );
    if (options.chainKeys !== undefined) {
      const { entries, checkpoints } = await log.readChain();
      t.like(
        entries.find((e) => e.id === pending.id && e.entry === 'outcome'),
        { keyType: 'rsa-2048', alg: 'PS384', kid },
      );
      const keys = options.chainKeys;
      t.like(verifyAuditLog({ entries, checkpoints, macKey: keys.macKey, publicKeys: trusted(keys) }), { ok: true, checked: 4 });
    }
    await log.close();
  });

  check(
    title("keeps an encryption context, a batch's contexts and how many more, exactly, given in the record or in its completion"),
    async (t) => {
      const { log } = await open();
      // The most §4.5b item 1 lets through: 16 members, a 256-character value, non-BMP text; names the
      // object model orders its own way (integer-like, `__proto__`), and an empty value.
      const widest = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`m${String(i).padStart(2, '0')}`, `v${i}`]));
      widest.m00 = '\u{1F511}'.repeat(128);
      widest.m01 = 'x'.repeat(256);
      const odd = JSON.parse('{"b":"2","10":"ten","9":"nine","__proto__":"member","a:b@c/d=e+f.g-h_i":""}') as Record<string, string>;
      const single = auditRecord({ operation: 'crypto.encrypt', version: 1, context: widest });
      const batch = auditRecord({
        operation: 'crypto.decrypt',
        items: 40,
        failures: 1,
        contexts: [odd, { tenant: 'acme' }],
        contextsOmitted: 14,
      });
      const pending = auditRecord({ operation: 'crypto.datakey.open', outcome: 'pending', status: 0, context: { tenant: 'acme' } });
      await appendAll(log, [single, batch, pending]);
      t.true(await log.complete(pending.id, { outcome: 'ok', status: 200, version: 2, context: odd }));
      t.deepEqual(await log.get(single.id), single);
      t.deepEqual(await log.get(batch.id), batch);
      const readBatch = await log.get(batch.id);
      t.true(Object.hasOwn(readBatch?.contexts?.[0] ?? {}, '__proto__'), 'a member named __proto__ is a member');
      const completed = { ...pending, outcome: 'ok', status: 200, version: 2, context: odd };
      t.deepEqual(await log.get(pending.id), completed);
      t.deepEqual(
        (await log.query({ operation: 'crypto.datakey.open' })).items,
        [completed],
        'a query answers them as a read of the record does',
      );
      if (options.chainKeys !== undefined) {
        const { entries, checkpoints } = await log.readChain();
        // deepEqual, not like: like rebuilds the expected shape by assignment, which drops a `__proto__` member.
        t.deepEqual(entries.find((e) => e.id === pending.id && e.entry === 'outcome')?.context, odd);
        const keys = options.chainKeys;
        t.like(verifyAuditLog({ entries, checkpoints, macKey: keys.macKey, publicKeys: trusted(keys) }), { ok: true, checked: 4 });
      }
      await log.close();
    },
  );

  check(title('refuses a second record with the same id and keeps the first'), async (t) => {
    const { log } = await open();
    const first = auditRecord();
    await log.append(first);
    await t.throwsAsync(log.append({ ...first, principal: 'mallory', outcome: 'error' }), { code: 'CONFLICT' } as never);
    t.deepEqual(await log.get(first.id), first);
    await log.close();
  });

  check(title('completes a pending record once, filling in what the outcome revealed'), async (t) => {
    const { log } = await open();
    const pending = auditRecord({ operation: 'keys.generate', outcome: 'pending', status: 0, object: undefined });
    const done = auditRecord({ outcome: 'ok' });
    await appendAll(log, [pending, done]);
    t.true(await log.complete(pending.id, { outcome: 'ok', status: 200, object: 'AAECAwQFBgcICQoLDA0ODw==' }));
    const completed = { ...pending, outcome: 'ok', status: 200, object: 'AAECAwQFBgcICQoLDA0ODw==' };
    t.deepEqual(await log.get(pending.id), completed);
    t.false(await log.complete(pending.id, { outcome: 'error', status: 500, code: 'INTERNAL' }), 'a record completes once');
    t.deepEqual(await log.get(pending.id), completed);
    t.false(await log.complete(done.id, { outcome: 'error', status: 500 }), 'a record appended final is not pending');
    t.false(await log.complete(newAuditId(random), { outcome: 'ok', status: 200 }));
    await log.close();
  });

  check(title('filters by time (bounds inclusive), principal, operation and outcome'), async (t) => {
    const { log } = await open();
    const records = [
      auditRecord({ at: T0, principal: 'alice', operation: 'login', outcome: 'ok' }),
      auditRecord({ at: T0 + 1, principal: 'bob', operation: 'login', outcome: 'denied', status: 401 }),
      auditRecord({ at: T0 + 2, principal: 'alice', operation: 'keys.export', outcome: 'denied', status: 403 }),
      auditRecord({ at: T0 + 3, principal: 'bob', operation: 'keys.export', outcome: 'ok' }),
      auditRecord({ at: T0 + 4, principal: 'alice', operation: 'keys.grant', outcome: 'pending', status: 0 }),
    ];
    await appendAll(log, records);
    const expect = async (query: AuditQuery, indexes: number[], what: string) =>
      t.deepEqual(
        ids((await log.query(query)).items),
        indexes.map((i) => records[i]!.id),
        what,
      );
    await expect({}, [4, 3, 2, 1, 0], 'everything, newest first');
    await expect({ from: T0 + 1, to: T0 + 3 }, [3, 2, 1], 'from and to are inclusive');
    await expect({ from: T0 + 2, to: T0 + 2 }, [2], 'a one-millisecond window');
    await expect({ from: T0 + 5 }, [], 'nothing after the last');
    await expect({ principal: 'alice' }, [4, 2, 0], 'principal');
    await expect({ operation: 'keys.export' }, [3, 2], 'operation');
    await expect({ outcome: 'denied' }, [2, 1], 'outcome');
    await expect({ outcome: 'pending' }, [4], 'pending records can be found');
    await expect({ principal: 'alice', outcome: 'denied', to: T0 + 2 }, [2], 'filters combine');
    await expect({ principal: 'ALICE' }, [], 'principal matches exactly');
    await log.close();
  });

  check(title('answers newest first, records of the same millisecond by id descending'), async (t) => {
    const { log } = await open();
    const records = Array.from({ length: 12 }, (_, i) => auditRecord({ at: T0 + (i % 3) }));
    await appendAll(log, records);
    t.deepEqual(ids((await log.query({})).items), ids(newestFirst(records)));
    await log.close();
  });

  check(title('limit defaults to 100 and stops at 500; bad limits, cursors and ranges are refused'), async (t) => {
    const { log } = await open();
    await appendAll(
      log,
      Array.from({ length: 120 }, (_, i) => auditRecord({ at: T0 + i })),
    );
    const first = await log.query({});
    t.is(first.items.length, 100);
    t.is(typeof first.next, 'string');
    const whole = await log.query({ limit: 500 });
    t.is(whole.items.length, 120);
    t.is(whole.next, undefined);
    const exact = await log.query({ limit: 120 });
    t.is(exact.next, undefined, 'no next when the page ends exactly at the last record');
    const foreign = encodeAuditCursor({ at: T0, id: 'f'.repeat(32) });
    for (const query of [
      { limit: 0 },
      { limit: 501 },
      { limit: 1.5 },
      { cursor: 'not-a-cursor' },
      { cursor: `${foreign}A` },
      { from: T0 + 1, to: T0 },
    ]) {
      await t.throwsAsync(log.query(query), { code: 'BAD_REQUEST' } as never, JSON.stringify(query));
    }
    await log.close();
  });

  check(title('following next visits every matching record exactly once, in order, at any page size'), async (t) => {
    const record = fc.record({
      at: fc.integer({ min: T0, max: T0 + 5 }),
      principal: fc.constantFrom('alice', 'bob'),
      outcome: fc.constantFrom(...AUDIT_RECORD_OUTCOMES),
    });
    const query = fc.record({
      limit: fc.integer({ min: 1, max: 7 }),
      principal: fc.option(fc.constant('alice'), { nil: undefined }),
      from: fc.option(fc.constant(T0 + 2), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 40 }), query, async (shapes, q) => {
        const { log } = await open();
        const records = shapes.map((shape) => auditRecord(shape));
        await appendAll(log, records);
        const filters: AuditQuery = {
          limit: q.limit,
          ...(q.principal ? { principal: q.principal } : {}),
          ...(q.from ? { from: q.from } : {}),
        };
        const seen = await allPages(log, filters);
        await log.close();
        const expected = newestFirst(records.filter((r) => (!q.principal || r.principal === q.principal) && (!q.from || r.at >= q.from)));
        return JSON.stringify(ids(seen)) === JSON.stringify(ids(expected));
      }),
      { numRuns: options.propertyRuns ?? 40 },
    );
    t.pass();
  });

  if (options.chainKeys !== undefined)
    check(title('appends a completion as a second entry; every entry is chained and the whole verifies'), async (t) => {
      const { log } = await open();
      const pending = auditRecord({ operation: 'keys.generate', outcome: 'pending', status: 0, at: T0 });
      const plain = Array.from({ length: 4 }, (_, i) => auditRecord({ at: T0 + 10 + i }));
      await log.append(pending);
      await appendAll(log, plain);
      t.true(await log.complete(pending.id, { outcome: 'ok', status: 201, at: T0 + 20 }));
      const { entries, checkpoints, partial } = await log.readChain();
      t.false(partial);
      t.is(entries.length, 6, 'the completion is an entry of its own');
      t.like(
        entries.find((e) => e.id === pending.id && e.entry === 'pending'),
        { outcome: 'pending', status: 0 },
        'the pending entry is never updated',
      );
      t.like(
        entries.find((e) => e.id === pending.id && e.entry === 'outcome'),
        { outcome: 'ok', status: 201, at: T0 + 20, requestId: pending.requestId },
      );
      t.deepEqual(
        entries.map((e) => e.seq).sort((a, b) => a! - b!),
        [1, 2, 3, 4, 5, 6],
      );
      t.true(checkpoints.length >= 2, 'a checkpoint every 3 entries');
      const keys = options.chainKeys!;
      const report = verifyAuditLog({ entries, checkpoints, macKey: keys.macKey, publicKeys: trusted(keys) });
      t.like(report, { ok: true, checked: 6 });
      t.is(report.firstBreak, undefined);
      const slice = await log.readChain({ from: T0 + 11, to: T0 + 12 });
      t.true(slice.partial);
      t.deepEqual(slice.entries.map((e) => e.at).sort(), [T0 + 11, T0 + 12]);
      t.like(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }), { ok: true });
      await log.close();
    });

  check(
    title('reads a range page by page: what readChain reads, in chain order, no page over its size, a chain fixed when the read began'),
    async (t) => {
      const { log } = await open();
      const pending = auditRecord({ operation: 'keys.generate', outcome: 'pending', status: 0, at: T0 + 5 });
      // Times out of step with the order of appends: pages follow the chain (or, unchained, at then id).
      await appendAll(
        log,
        [3, 1, 4, 1, 5, 9, 2, 6].map((i) => auditRecord({ at: T0 + i })),
      );
      await log.append(pending);
      t.true(await log.complete(pending.id, { outcome: 'ok', status: 201, at: T0 + 7 }));
      for (const [range, size] of [
        [{}, 2],
        [{}, 1000],
        [{ from: T0 + 2, to: T0 + 6 }, 1],
      ] as const) {
        const whole = await log.readChain(range);
        const chain = await log.readChainPages(range, size);
        // A chain's part of the range is fixed at the start; unchained entries have no seq to fix it by.
        if (options.chainKeys !== undefined) await log.append(auditRecord({ at: T0 + 3 }));
        const pages = await allChainPages(chain);
        t.true(pages.length > 0 && pages.every((page) => page.length >= 1 && page.length <= size), `pages of at most ${size}`);
        t.deepEqual(pages.flat().map(entryKey), inChainOrder(whole.entries).map(entryKey), 'the entries readChain read, in chain order');
        t.deepEqual(bySeqAndWriter(chain.checkpoints), bySeqAndWriter(whole.checkpoints));
        t.is(chain.partial, whole.partial);
        if (options.chainKeys === undefined) continue;
        const verifier = new AuditLogVerifier({ ...chain, macKey: options.chainKeys.macKey, publicKeys: trusted(options.chainKeys) });
        for (const page of pages) verifier.add(page);
        t.like(verifier.result(), { ok: true, checked: whole.entries.length });
      }
      await log.close();
    },
  );

  check(title('a store that cannot be reached throws AuditUnavailableError for every call, never a list'), async (t) => {
    const { log, breakStore } = await open();
    const stored = auditRecord({ outcome: 'pending', status: 0 });
    await log.append(stored);
    await log.ping();
    await breakStore();
    const unavailable = { code: 'AUDIT_UNAVAILABLE' } as never;
    await t.throwsAsync(log.append(auditRecord()), unavailable);
    await t.throwsAsync(log.complete(stored.id, { outcome: 'ok', status: 200 }), unavailable);
    await t.throwsAsync(log.get(stored.id), unavailable);
    await t.throwsAsync(log.query({}), unavailable);
    await t.throwsAsync(log.ping(), unavailable);
    await t.throwsAsync(log.readChainPages(), unavailable);
    const error = await t.throwsAsync(log.query({ limit: 10 }));
    t.like(error, { retryable: true, scope: 'process', retryAfterSeconds: 5 });
    await log.close();
  });
}
