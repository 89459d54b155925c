import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { Secret } from '../../src/domain/secret/secret.js';
import type { SessionRecord } from '../../src/domain/session/session.js';
import { newSessionId, sessionKey, sessionRef } from '../../src/domain/session/session-id.js';
import type { SessionStore } from '../../src/ports/session-store.port.js';

/** Makes a fresh, empty store on the given clock. */
export type SessionStoreFactory = (clock: ManualClock) => Promise<SessionStore>;

const random = new CryptoRandom();

function record(clock: ManualClock, principalId = '00000000000000aa', ttlMs = 60_000): { key: string; record: SessionRecord } {
  const id = newSessionId(random);
  return {
    key: sessionKey(id),
    record: {
      ref: sessionRef(id),
      identity: { user: 'alice', systemId: 1001, principalId },
      token: new Secret(`token-${id}`),
      kind: 'scoped',
      createdAt: clock.now(),
      expiresAt: clock.now() + ttlMs,
      jkt: 'thumbprint',
      objects: ['AAAAAAAAAAAAAAAAAAAAAA=='],
      rights: ['read', 'export'],
      actingFor: 'svc',
    },
  };
}

/** The SessionStore contract (src/ports/session-store.port.ts), run against one adapter. */
export function sessionStoreContract(name: string, makeStore: SessionStoreFactory): void {
  const title = (behaviour: string) => `${name} session store: ${behaviour}`;

  test(title('gives back what was put, token included'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const { key, record: stored } = record(clock);
    await store.put(key, stored);
    const found = await store.get(key);
    t.truthy(found);
    t.deepEqual({ ...found!, token: undefined }, { ...stored, token: undefined });
    t.is(found!.token.reveal(), stored.token.reveal());
    await store.close();
  });

  test(title('answers undefined for an unknown key'), async (t) => {
    const store = await makeStore(new ManualClock());
    t.is(await store.get(sessionKey('nope')), undefined);
    await store.close();
  });

  test(title('forgets a record at its expiry'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const { key, record: stored } = record(clock, undefined, 10_000);
    await store.put(key, stored);
    clock.advance(9_999);
    t.truthy(await store.get(key));
    t.is(await store.count(), 1);
    clock.advance(1);
    t.is(await store.get(key), undefined);
    t.is(await store.count(), 0);
    await store.close();
  });

  test(title('delete removes and says whether a live record was there'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const { key, record: stored } = record(clock);
    await store.put(key, stored);
    t.true(await store.delete(key));
    t.false(await store.delete(key));
    t.is(await store.get(key), undefined);
    await store.close();
  });

  test(title('counts live records and lists them by principal'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const a1 = record(clock, '00000000000000a1');
    const a2 = record(clock, '00000000000000a1');
    const b = record(clock, '00000000000000b2');
    for (const r of [a1, a2, b]) await store.put(r.key, r.record);
    t.is(await store.count(), 3);
    const listed = await store.listByPrincipal('00000000000000a1');
    t.deepEqual(listed.map((r) => r.ref).sort(), [a1.record.ref, a2.record.ref].sort());
    t.deepEqual(await store.listByPrincipal('00000000000000ff'), []);
    t.is(await store.countByPrincipal('00000000000000a1'), 2);
    t.is(await store.countByPrincipal('00000000000000b2'), 1);
    t.is(await store.countByPrincipal('00000000000000ff'), 0);
    await store.close();
  });

  test(title("deleteByPrincipal removes one principal's records but the one kept"), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const [a1, a2, a3] = [record(clock, '00000000000000a1'), record(clock, '00000000000000a1'), record(clock, '00000000000000a1')];
    const b = record(clock, '00000000000000b2');
    for (const r of [a1, a2, a3, b]) await store.put(r.key, r.record);
    t.is(await store.deleteByPrincipal('00000000000000a1', a2.key), 2);
    t.is(await store.get(a1.key), undefined);
    t.is(await store.get(a3.key), undefined);
    t.is((await store.get(a2.key))?.ref, a2.record.ref);
    t.is((await store.get(b.key))?.ref, b.record.ref);
    t.is(await store.deleteByPrincipal('00000000000000b2'), 1);
    t.is(await store.count(), 1);
    await store.close();
  });

  test(title('deleteActingFor removes every record one service delegated, whatever principal it acts for'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const delegated = (principalId: string, actingFor: string | undefined) => {
      const { key, record: base } = record(clock, principalId);
      const { actingFor: _drop, ...rest } = base;
      return {
        key,
        record: actingFor === undefined ? { ...rest, kind: 'scoped' as const } : { ...rest, kind: 'delegated' as const, actingFor },
      };
    };
    const forA = delegated('00000000000000a1', 'svc');
    const forB = delegated('00000000000000b2', 'svc');
    const byOther = delegated('00000000000000a1', 'svc-2');
    const own = delegated('00000000000000c3', undefined);
    const expiring = {
      ...delegated('00000000000000b2', 'svc'),
      record: { ...delegated('00000000000000b2', 'svc').record, expiresAt: clock.now() + 1_000 },
    };
    for (const r of [forA, forB, byOther, own, expiring]) await store.put(r.key, r.record);
    clock.advance(1_000);
    t.is(await store.deleteActingFor('svc'), 2, 'an expired one is not counted');
    t.is(await store.get(forA.key), undefined);
    t.is(await store.get(forB.key), undefined);
    t.is((await store.get(byOther.key))?.ref, byOther.record.ref, "another service's delegation stays");
    t.is((await store.get(own.key))?.ref, own.record.ref);
    t.deepEqual(
      (await store.listByPrincipal('00000000000000a1')).map((r) => r.ref),
      [byOther.record.ref],
    );
    t.is(await store.deleteActingFor('svc'), 0);
    t.is(await store.deleteActingFor('nobody'), 0);
    t.is(await store.count(), 2);
    await store.close();
  });

  test(title('a record replaced without its actingFor leaves the service, and a deleted one is not found again'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const first = record(clock, '00000000000000a1');
    const second = record(clock, '00000000000000a1');
    await store.put(first.key, first.record);
    await store.put(second.key, second.record);
    const { actingFor: _drop, ...plain } = first.record;
    await store.put(first.key, { ...plain, kind: 'password' });
    await store.delete(second.key);
    t.is(await store.deleteActingFor('svc'), 0);
    t.is((await store.get(first.key))?.kind, 'password');
    await store.close();
  });

  test(title('put replaces the record under the same key'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const { key, record: stored } = record(clock);
    await store.put(key, stored);
    await store.put(key, { ...stored, kind: 'password' });
    t.is((await store.get(key))!.kind, 'password');
    t.is(await store.count(), 1);
    await store.close();
  });

  test(title('a replaced record keeps its own expiry, and a record that moved principal leaves the old list'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const { key, record: first } = record(clock, '00000000000000a1', 10_000);
    await store.put(key, first);
    await store.put(key, { ...first, identity: { ...first.identity, principalId: '00000000000000b2' }, expiresAt: clock.now() + 20_000 });
    t.deepEqual(await store.listByPrincipal('00000000000000a1'), []);
    clock.advance(10_000);
    t.is(await store.count(), 1, 'the first expiry does not take the replacement');
    t.is((await store.listByPrincipal('00000000000000b2')).length, 1);
    t.truthy(await store.get(key));
    clock.advance(10_000);
    t.is(await store.count(), 0);
    t.deepEqual(await store.listByPrincipal('00000000000000b2'), []);
    await store.close();
  });

  test(title('count and lists leave out records as each expires, in any order of puts'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const lifetimes = [50_000, 10_000, 40_000, 20_000, 30_000];
    for (const ttl of lifetimes) {
      const { key, record: stored } = record(clock, '00000000000000a1', ttl);
      await store.put(key, stored);
    }
    for (let left = lifetimes.length - 1; left >= 0; left--) {
      clock.advance(10_000);
      t.is(await store.count(), left);
      t.is((await store.listByPrincipal('00000000000000a1')).length, left);
      t.is(await store.countByPrincipal('00000000000000a1'), left);
    }
    await store.close();
  });

  test(title('deleting one of several records of a principal keeps the others listed'), async (t) => {
    const clock = new ManualClock();
    const store = await makeStore(clock);
    const [a, b] = [record(clock, '00000000000000a1'), record(clock, '00000000000000a1')];
    await store.put(a.key, a.record);
    await store.put(b.key, b.record);
    t.true(await store.delete(a.key));
    t.deepEqual(
      (await store.listByPrincipal('00000000000000a1')).map((r) => r.ref),
      [b.record.ref],
    );
    t.is(await store.count(), 1);
    await store.close();
  });
}
