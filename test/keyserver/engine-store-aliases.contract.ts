import test from 'ava';
import type { AliasRow, KeyRow } from '../../src/keyserver/engine/engine-model.js';
import type { Right } from '../../src/wire/acl.js';
import type { EngineStoreFactory } from './engine-store.contract.js';

const OWNER = 'aaaaaaaaaaaaaaaa';
const OTHER = 'bbbbbbbbbbbbbbbb';
const GROUP = 'cccccccccccccccc';

function key(ttag: string, owner = OWNER, acl: [string, Right[]][] = []): KeyRow {
  return {
    ttag,
    nid: 427,
    material: Buffer.alloc(32, 7),
    owner,
    acl: new Map(acl),
    aclRevision: 0,
    laterVersions: [],
    minVersion: 1,
    createdAt: 1_700_000_000_000,
    expired: false,
    disabled: false,
    tags: {},
  };
}

function alias(name: string, ttag: string, at = 1_700_000_000_000): AliasRow {
  return { name, ttag, createdAt: at, updatedAt: at };
}

/** Aliases and last use of the EngineStore contract (engine-store.port.ts, docs/spec.md §4.23 items 3 and 6), run against one store. */
export function engineStoreAliasesContract(name: string, make: EngineStoreFactory): void {
  const title = (behaviour: string) => `${name} engine store: ${behaviour}`;

  test(title('keeps an alias by name, moves it to another key, counts each key’s, and deletes it'), async (t) => {
    const store = await make();
    t.teardown(() => store.close());
    await store.putKey(key('a2V5LW9uZQ=='));
    await store.putKey(key('a2V5LXR3bw=='));
    await store.putAlias(alias('billing', 'a2V5LW9uZQ=='));
    await store.putAlias(alias('orders', 'a2V5LW9uZQ=='));
    t.deepEqual(await store.alias('billing'), alias('billing', 'a2V5LW9uZQ=='));
    t.is(await store.alias('Billing'), undefined, 'names are case-sensitive');
    t.is(await store.aliasCount('a2V5LW9uZQ=='), 2);
    const moved = { name: 'billing', ttag: 'a2V5LXR3bw==', createdAt: 1_700_000_000_000, updatedAt: 1_700_000_060_000 };
    await store.putAlias(moved);
    t.deepEqual(await store.alias('billing'), moved);
    t.deepEqual([await store.aliasCount('a2V5LW9uZQ=='), await store.aliasCount('a2V5LXR3bw==')], [1, 1]);
    await store.deleteAlias('billing');
    t.is(await store.alias('billing'), undefined);
    await store.deleteAlias('billing');
    t.is(await store.aliasCount('a2V5LXR3bw=='), 0);
  });

  test(title('lists aliases by name in code-unit order, after a name, by key, prefix, reach and scope'), async (t) => {
    const store = await make();
    t.teardown(() => store.close());
    await store.putKey(key('b3duZWQ=', OWNER));
    await store.putKey(key('Z3JhbnRlZA==', OTHER, [[GROUP, ['encrypt']]]));
    await store.putKey(key('b3RoZXI=', OTHER));
    for (const [name, ttag] of [
      ['b-2', 'b3duZWQ='],
      ['a_1', 'b3duZWQ='],
      ['B-0', 'Z3JhbnRlZA=='],
      ['b-1', 'b3RoZXI='],
      ['b.3', 'b3duZWQ='],
    ] as const)
      await store.putAlias(alias(name, ttag));
    const names = async (query: Parameters<typeof store.aliasesAfter>[0]) => (await store.aliasesAfter(query)).map((row) => row.name);
    t.deepEqual(await names({ limit: 10 }), ['B-0', 'a_1', 'b-1', 'b-2', 'b.3']);
    t.deepEqual(await names({ limit: 2, after: 'a_1' }), ['b-1', 'b-2']);
    t.deepEqual(await names({ limit: 10, ttag: 'b3duZWQ=' }), ['a_1', 'b-2', 'b.3']);
    t.deepEqual(await names({ limit: 10, prefix: 'b-' }), ['b-1', 'b-2'], 'a prefix is no pattern: "_" and "." are themselves');
    t.deepEqual(await names({ limit: 10, prefix: 'a_' }), ['a_1']);
    t.deepEqual(await names({ limit: 10, prefix: 'a%' }), []);
    t.deepEqual(await names({ limit: 10, reachedBy: [OWNER] }), ['a_1', 'b-2', 'b.3']);
    t.deepEqual(await names({ limit: 10, reachedBy: [OWNER, GROUP] }), ['B-0', 'a_1', 'b-2', 'b.3']);
    t.deepEqual(await names({ limit: 10, reachedBy: ['dddddddddddddddd'] }), []);
    t.deepEqual(await names({ limit: 10, within: ['Z3JhbnRlZA==', 'b3RoZXI='] }), ['B-0', 'b-1']);
    t.deepEqual(await names({ limit: 10, within: ['b3RoZXI='], reachedBy: [OWNER, GROUP] }), []);
  });

  test(title('writes a key’s last use alone: a later put of the key keeps it, and the rest of the row stays'), async (t) => {
    const store = await make();
    t.teardown(() => store.close());
    const stored = key('dXNlZA==', OWNER, [[OTHER, ['read']]]);
    await store.putKey(stored);
    t.false('lastUsedAt' in (await store.key('dXNlZA=='))!);
    await store.recordKeyUse('dXNlZA==', 1_700_000_120_000, 'mac.verify');
    const used = (await store.key('dXNlZA=='))!;
    t.like(used, { lastUsedAt: 1_700_000_120_000, lastUsedOperation: 'mac.verify', aclRevision: 0, disabled: false });
    t.deepEqual([...used.acl], [[OTHER, ['read']]]);
    await store.putKey({ ...stored, disabled: true, aclRevision: 3 });
    t.like(await store.key('dXNlZA=='), { lastUsedAt: 1_700_000_120_000, lastUsedOperation: 'mac.verify', disabled: true, aclRevision: 3 });
    await store.putKey({ ...used, lastUsedAt: 1, lastUsedOperation: 'export' });
    t.like(await store.key('dXNlZA=='), { lastUsedAt: 1_700_000_120_000, lastUsedOperation: 'mac.verify' }, 'putKey never writes it');
    await store.recordKeyUse('bm9uZQ==', 1_700_000_180_000, 'export');
    t.is(await store.key('bm9uZQ=='), undefined, 'an unknown key is left alone');
  });
}
