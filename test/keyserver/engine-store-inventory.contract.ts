import test from 'ava';
import type { KeyPageQuery, KeyRow } from '../../src/keyserver/engine/engine-model.js';
import type { Right } from '../../src/wire/acl.js';
import type { EngineStoreFactory } from './engine-store.contract.js';

const ALICE = 'a1a1a1a1a1a1a1a1';
const BOB = 'b0b0b0b0b0b0b0b0';
const OPS = '0b0b0b0b0b0b0b0b';
const T0 = 1_700_000_000_000;
const NOW = T0 + 100_000;

function key(ttag: string, extra: Partial<KeyRow> = {}, acl: [string, Right[]][] = []): KeyRow {
  return {
    ttag,
    nid: 427,
    material: Buffer.alloc(16, 3),
    owner: ALICE,
    acl: new Map(acl),
    aclRevision: 0,
    laterVersions: [],
    minVersion: 1,
    createdAt: T0,
    expired: false,
    disabled: false,
    tags: {},
    ...extra,
  };
}

/**
 * The keys of the page tests: two pairs share an instant (the ttag orders them, code unit descending:
 * `+` and `/` sort below digits and letters), labels with a common prefix, owners, grants, tags and states.
 */
const KEYS: readonly KeyRow[] = [
  key('k1AAAAAAAAAAAAAAAAAAAAAA', { label: 'app-one', createdAt: T0 + 1000 }),
  key('k2AAAAAAAAAAAAAAAAAAAAAA', { label: 'apple', createdAt: T0 + 2000, owner: BOB }, [[ALICE, ['read']]]),
  key('k3AAAAAAAAAAAAAAAAAAAAAA', { label: 'App', createdAt: T0 + 2000, owner: BOB }, [[OPS, ['encrypt']]]),
  key('+4AAAAAAAAAAAAAAAAAAAAAA', { createdAt: T0 + 2000, owner: BOB }),
  key('k5AAAAAAAAAAAAAAAAAAAAAA', { label: 'app-two', createdAt: T0 + 3000, disabled: true }),
  key('/6AAAAAAAAAAAAAAAAAAAAAA', { createdAt: T0 + 3000, expiresAt: NOW }),
  key('k7AAAAAAAAAAAAAAAAAAAAAA', { createdAt: T0 + 4000, expired: true, disabled: true }),
];
const TAGS: Readonly<Record<string, Record<string, string>>> = {
  k1AAAAAAAAAAAAAAAAAAAAAA: { env: 'prod', team: 'a' },
  k2AAAAAAAAAAAAAAAAAAAAAA: { env: 'prod' },
  '+4AAAAAAAAAAAAAAAAAAAAAA': { env: 'dev', team: 'a' },
};
/** Every key, in the list's order: newest first, then ttag descending by code unit. */
const ORDER = [
  'k7AAAAAAAAAAAAAAAAAAAAAA',
  'k5AAAAAAAAAAAAAAAAAAAAAA',
  '/6AAAAAAAAAAAAAAAAAAAAAA',
  'k3AAAAAAAAAAAAAAAAAAAAAA',
  'k2AAAAAAAAAAAAAAAAAAAAAA',
  '+4AAAAAAAAAAAAAAAAAAAAAA',
  'k1AAAAAAAAAAAAAAAAAAAAAA',
];

/** The EngineStore contract of the key inventory (docs/spec.md §4.23 items 1, 2): tags and the key page. */
export function engineStoreInventoryContract(name: string, make: EngineStoreFactory): void {
  const title = (behaviour: string) => `${name} engine store: ${behaviour}`;

  async function seeded() {
    const store = await make();
    for (const row of KEYS) await store.putKey(row);
    for (const [ttag, tags] of Object.entries(TAGS))
      for (const [tag, value] of Object.entries(tags)) await store.putKeyTag(ttag, tag, value);
    const page = async (query: Partial<KeyPageQuery> = {}) =>
      (await store.keyPage({ tags: [], now: NOW, limit: 100, ...query })).map((row) => row.ttag);
    return { store, page };
  }

  test(title("keeps a key's tags, replaces a value, deletes one, and keeps them through later puts of the key"), async (t) => {
    const store = await make();
    const row = key('AAAAAAAAAAAAAAAAAAAAAA==');
    await store.putKey(row);
    t.deepEqual((await store.key(row.ttag))!.tags, {});
    await store.putKeyTag(row.ttag, 'env', 'prod');
    await store.putKeyTag(row.ttag, 'a/b=c+d@e', '');
    await store.putKeyTag(row.ttag, 'env', 'dev');
    t.deepEqual((await store.key(row.ttag))!.tags, { env: 'dev', 'a/b=c+d@e': '' });
    await store.putKey({ ...row, label: 'relabelled', tags: {} });
    t.deepEqual((await store.key(row.ttag))!.tags, { env: 'dev', 'a/b=c+d@e': '' }, 'putKey leaves the tags as stored');
    await store.deleteKeyTag(row.ttag, 'env');
    await store.deleteKeyTag(row.ttag, 'env');
    await store.deleteKeyTag(row.ttag, 'never');
    t.deepEqual((await store.key(row.ttag))!.tags, { 'a/b=c+d@e': '' });
    await store.close();
  });

  test(title('reads a page of keys newest first then by ttag descending, after a position, at most a limit, each key whole'), async (t) => {
    const { store, page } = await seeded();
    t.deepEqual(await page(), ORDER);
    t.deepEqual(await page({ limit: 3 }), ORDER.slice(0, 3));
    t.deepEqual(await page({ after: { createdAt: T0 + 2000, ttag: 'k3AAAAAAAAAAAAAAAAAAAAAA' }, limit: 2 }), ORDER.slice(4, 6));
    t.deepEqual(await page({ after: { createdAt: T0 + 1000, ttag: 'k1AAAAAAAAAAAAAAAAAAAAAA' } }), []);
    const rows = await store.keyPage({ tags: [], now: NOW, limit: 100 });
    for (const row of rows) t.deepEqual(row, await store.key(row.ttag), `${row.ttag}: as key() reads it`);
    t.deepEqual(rows.find((row) => row.ttag === 'k1AAAAAAAAAAAAAAAAAAAAAA')!.tags, TAGS.k1AAAAAAAAAAAAAAAAAAAAAA);
    t.deepEqual([...rows.find((row) => row.ttag === 'k2AAAAAAAAAAAAAAAAAAAAAA')!.acl], [[ALICE, ['read']]]);
    await store.close();
  });

  test(title('a page and the alias list count only unconditioned ACL entries for visibility'), async (t) => {
    const store = await make();
    // docs/spec.md §4.5b item 4: the key list counts only unconditioned rights; the alias list follows it.
    const conditioned = key('Y29uZEFBQUFBQUFBQUFBQUFB', { owner: BOB, aclConditions: new Map([[ALICE, { context: { t: 'a' } }]]) }, [
      [ALICE, ['encrypt']],
      [OPS, ['read']],
    ]);
    await store.putKey(conditioned);
    await store.putAlias({ name: 'cond', ttag: conditioned.ttag, createdAt: T0, updatedAt: T0 });
    const page = async (visibleTo: string[]) => (await store.keyPage({ tags: [], now: NOW, limit: 10, visibleTo })).map((row) => row.ttag);
    const aliases = async (reachedBy: string[]) => (await store.aliasesAfter({ limit: 10, reachedBy })).map((row) => row.name);
    t.deepEqual(await page([ALICE]), [], 'a conditioned entry alone does not list the key');
    t.deepEqual(await aliases([ALICE]), []);
    t.deepEqual(await page([ALICE, OPS]), [conditioned.ttag], 'an unconditioned group entry does');
    t.deepEqual(await aliases([ALICE, OPS]), ['cond']);
    t.deepEqual(await page([BOB]), [conditioned.ttag], 'the owner sees it');
    await store.close();
  });

  test(title('filters a page by visibility, ttags, owner, label prefix, tags, state and creation time'), async (t) => {
    const { store, page } = await seeded();
    const only = (...ttags: string[]) => ORDER.filter((ttag) => ttags.includes(ttag));
    const [k7, k5, k6, k3, k2, k4, k1] = ORDER as [string, string, string, string, string, string, string];
    t.deepEqual(await page({ visibleTo: [ALICE] }), only(k7, k5, k6, k2, k1), 'owned, or granted to alice (active or not)');
    t.deepEqual(await page({ visibleTo: [ALICE, OPS] }), only(k7, k5, k6, k3, k2, k1), 'and to her group');
    t.deepEqual(await page({ visibleTo: ['ffffffffffffffff'] }), []);
    t.deepEqual(await page({ visibleTo: [ALICE], ttags: [k2, k3, k4] }), [k2], 'a scope: within what the principal sees');
    t.deepEqual(await page({ owner: BOB }), only(k2, k3, k4));
    t.deepEqual(await page({ labelPrefix: 'app' }), only(k5, k2, k1), 'a prefix, case-sensitive');
    t.deepEqual(await page({ labelPrefix: 'app-' }), only(k5, k1));
    t.deepEqual(await page({ labelPrefix: 'apple-pie' }), []);
    t.deepEqual(await page({ tags: [{ name: 'env', value: 'prod' }] }), only(k2, k1));
    t.deepEqual(await page({ tags: [{ name: 'team' }] }), only(k4, k1), 'a name: any value');
    t.deepEqual(
      await page({
        tags: [
          { name: 'env', value: 'prod' },
          { name: 'team', value: 'a' },
        ],
      }),
      [k1],
      'every tag must match',
    );
    t.deepEqual(await page({ state: 'active' }), only(k3, k2, k4, k1));
    t.deepEqual(await page({ state: 'disabled' }), [k5]);
    t.deepEqual(await page({ state: 'expired' }), only(k7, k6), 'expired on purpose or by its time (expiry wins over disabled)');
    t.deepEqual(await page({ state: 'expired', now: NOW - 1 }), [k7], 'expiry is as of now');
    t.deepEqual(await page({ state: 'deleted' }), []);
    t.deepEqual(await page({ state: 'pending-deletion' }), []);
    t.deepEqual(await page({ createdAfter: T0 + 2000 }), only(k7, k5, k6), 'strictly after');
    t.deepEqual(await page({ createdBefore: T0 + 2000 }), [k1], 'strictly before');
    t.deepEqual(await page({ visibleTo: [ALICE], state: 'active', labelPrefix: 'app', after: { createdAt: T0 + 2000, ttag: k2 } }), [k1]);
    await store.close();
  });
}
