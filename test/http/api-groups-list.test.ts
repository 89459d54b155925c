import type { ExecutionContext } from 'ava';
import { GROUPS_LIMIT_MAX } from '../../src/wire/list-result.js';
import { type ApiSession, signIn } from '../_support/api-client.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/** The names of a list's items, in the order answered. */
const names = (body: { items: { name: string }[] }) => body.items.map((item) => item.name);
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every page of GET /api/groups at `limit`, from the first: each page asserted 200 and complete. */
async function walk(t: ExecutionContext, admin: ApiSession, limit: number): Promise<{ name: string; kind: string }[][]> {
  const pages: { name: string; kind: string }[][] = [];
  let path = `/api/groups?limit=${limit}`;
  for (;;) {
    const page = await admin.get(path);
    t.is(page.status, 200, page.text);
    t.true(page.body.complete);
    pages.push(page.body.items);
    if (page.body.next === undefined) return pages;
    t.is(typeof page.body.next, 'string');
    path = `/api/groups?limit=${limit}&cursor=${encodeURIComponent(page.body.next)}`;
  }
}

/** Creates the groups named, through POST /api/principals, a few at a time. */
async function createGroups(admin: ApiSession, groups: readonly string[]): Promise<void> {
  for (let i = 0; i < groups.length; i += 10) {
    const replies = await Promise.all(groups.slice(i, i + 10).map((name) => admin.post('/api/principals', { name, kind: 'group' })));
    const failed = replies.find((reply) => reply.status !== 201);
    if (failed !== undefined) throw new Error(`create group: ${failed.status} ${failed.text}`);
  }
}

/** docs/spec.md §4.9 item 1: the groups by name, a page at a time, on each of the key server's stores. */
for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: GET /api/groups lists only groups, each its principal view; with none but the seed's, one page without next`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const admin = await signIn(gw, 'admin');
      const reply = await admin.get('/api/groups');
      t.is(reply.status, 200, reply.text);
      t.deepEqual(reply.body, { items: [(await admin.get('/api/principals/ops')).body], complete: true });
      t.is((await admin.del('/api/principals/ops')).status, 204);
      t.deepEqual((await admin.get('/api/groups')).body, { items: [], complete: true }, 'no group: an empty list, complete');
    },
  );

  check(`${store}: GET /api/groups pages through 251 groups by name, each once, next absent on the last page`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const admin = await signIn(gw, 'admin');
    const made = Array.from({ length: 245 }, (_, n) => `team-${String(n).padStart(3, '0')}`);
    // Code-unit order: upper case before lower case, digits before letters, a space before both.
    made.push('Zeta', 'alpha', '9 lives', 'team 1', 'team-1000');
    await createGroups(admin, made);
    const expected = [...made, 'ops'].sort(byCodeUnit);

    const pages = await walk(t, admin, 100);
    t.deepEqual(
      pages.map((page) => page.length),
      [100, 100, 51],
    );
    t.deepEqual(
      pages.flat().map((item) => item.name),
      expected,
    );
    t.true(pages.flat().every((item) => item.kind === 'group'));
    t.deepEqual(names((await admin.get('/api/groups')).body), expected.slice(0, 100), 'limit defaults to 100');
    const whole = await admin.get(`/api/groups?limit=${GROUPS_LIMIT_MAX}`);
    t.deepEqual(names(whole.body), expected);
    t.false('next' in whole.body, 'a page that holds the rest names no next page');
  });

  check(`${store}: a limit out of range or a cursor not of this list is 400 BAD_REQUEST naming it`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const admin = await signIn(gw, 'admin');
    for (const limit of ['0', String(GROUPS_LIMIT_MAX + 1), '-1', 'ten', '2.5']) {
      const refused = await admin.get(`/api/groups?limit=${limit}`);
      t.like(refused, { status: 400, body: { code: 'BAD_REQUEST' } }, `limit=${limit}`);
      t.regex(refused.body.detail, /limit/, `limit=${limit}`);
    }
    const principalsCursor = (await admin.get('/api/principals?limit=1')).body.next as string;
    for (const cursor of ['bm90LWEtY3Vyc29y', principalsCursor]) {
      const refused = await admin.get(`/api/groups?cursor=${encodeURIComponent(cursor)}`);
      t.like(refused, { status: 400, body: { code: 'BAD_REQUEST' } }, cursor);
      t.regex(refused.body.detail, /cursor/);
    }
    t.like(await admin.get('/api/groups?kind=user'), { status: 400, body: { code: 'BAD_REQUEST' } }, 'an unknown query field');
  });

  check(`${store}: GET /api/groups is 403 ROLE_DENIED to a user and an auditor; a role holding groups.read lists them`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const admin = await signIn(gw, 'admin');
    for (const caller of ['alice', 'audra'] as const) {
      t.like(await (await signIn(gw, caller)).get('/api/groups'), { status: 403, body: { code: 'ROLE_DENIED' } }, caller);
    }
    t.is((await admin.put('/api/roles/group-reader', { operations: ['groups.read'] })).status, 200);
    t.is((await admin.put('/api/principals/bob', { roles: ['group-reader'] })).status, 200);
    t.deepEqual(names((await (await signIn(gw, 'bob')).get('/api/groups')).body), ['ops'], 'groups.read alone lists them');
  });
}
