import type { ExecutionContext } from 'ava';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import type { TestGateway } from '../_support/gateway.js';
import { makeSigner } from '../_support/proof-builder.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

type Summary = { ttag: string; label?: string; tags: Record<string, string>; state: string; createdAt: string; owner: { user: string } };

/** Every page of the list at `query` and `limit`, from the first: each page asserted 200 and complete. */
async function walk(t: ExecutionContext, session: ApiSession, query: string, limit: number): Promise<Summary[][]> {
  const pages: Summary[][] = [];
  let cursor = '';
  for (;;) {
    const page = await session.get(`/api/keys?limit=${limit}${query}${cursor}`);
    t.is(page.status, 200, page.text);
    t.true(page.body.complete);
    pages.push(page.body.items);
    if (page.body.next === undefined) return pages;
    cursor = `&cursor=${encodeURIComponent(page.body.next)}`;
  }
}

const ttags = (items: readonly Summary[]) => items.map((item) => item.ttag);
const listed = async (session: ApiSession, query = '') => {
  const reply = await session.get(`/api/keys?limit=1000${query}`);
  if (reply.status !== 200) throw new Error(`list: ${reply.status} ${reply.text}`);
  return ttags(reply.body.items);
};

/** Keys of alice, each a second after the one before (three share one instant, so the ttag orders them). */
async function aliceKeys(gw: TestGateway, alice: ApiSession, count: number): Promise<string[]> {
  const made: string[] = [];
  for (let n = 0; n < count; n += 1) {
    if (n % 4 !== 1) gw.clock.advance(1000);
    made.push((await createKey(alice, { label: `app-${String(n).padStart(2, '0')}` })).ttag);
  }
  return made;
}

/** The list's order (docs/spec.md §4.23 item 1): newest first, then ttag by code unit, descending. */
function inListOrder(views: readonly { ttag: string; createdAt: string }[]): string[] {
  return [...views]
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.ttag < b.ttag ? 1 : a.ttag > b.ttag ? -1 : 0))
    .map((view) => view.ttag);
}

/** docs/spec.md §4.23 items 1 and 2 on each of the key server's stores. */
for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: GET /api/keys pages through every key exactly once, newest first then by ttag; a root POST /keys key is listed`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const made = await aliceKeys(gw, alice, 9);
      const root = await gw.call('POST', '/keys', { headers: { 'X-Session': alice.sessionId }, body: {} });
      t.is(root.status, 200, root.text);
      made.push(root.body.ttag);
      const views = await Promise.all(made.map(async (ttag) => (await alice.get(`/api/keys/${pathTtag(ttag)}`)).body));
      const expected = inListOrder(views);

      const pages = await walk(t, alice, '', 3);
      t.deepEqual(
        pages.map((page) => page.length),
        [3, 3, 3, 1],
      );
      t.deepEqual(ttags(pages.flat()), expected, 'every key once, in the list order');
      const first = pages[0]![0]!;
      const { versions: _v, ...summary } = views.find((view) => view.ttag === first.ttag);
      t.deepEqual(first, summary, 'a summary is the key view without its versions');
      t.false('versions' in first);
      t.deepEqual(first.tags, {});
      t.deepEqual(await listed(alice), expected, 'limit 1000: one page');
      t.false('next' in (await alice.get('/api/keys?limit=10')).body, 'a page that holds the rest names no next page');
      t.is((await alice.get('/api/keys')).body.items.length, 10, 'limit defaults to 100');
    },
  );

  check(`${store}: each filter of GET /api/keys narrows the list: q, tag, state, owner, createdAfter, createdBefore`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const bob = await signIn(gw, 'bob');
    const admin = await signIn(gw, 'admin');
    const made = await aliceKeys(gw, alice, 6);
    gw.clock.advance(1000);
    const bobs = (await createKey(bob, { label: 'app-bob' })).ttag;
    const view = async (ttag: string) => (await alice.get(`/api/keys/${pathTtag(ttag)}`)).body;
    const order = async (list: string[]) => inListOrder(await Promise.all(list.map(view)));

    t.deepEqual(await listed(alice, '&q=app-0'), await order(made), 'q: a label prefix');
    t.deepEqual(await listed(alice, '&q=app-03'), [made[3]]);
    t.deepEqual(await listed(alice, '&q=APP'), [], 'q is case-sensitive');

    for (const [ttag, tags] of [
      [made[0], { env: 'prod', team: 'a' }],
      [made[1], { env: 'prod' }],
      [made[2], { env: 'dev', team: 'a' }],
    ] as const) {
      for (const [name, value] of Object.entries(tags))
        t.is((await alice.put(`/api/keys/${pathTtag(ttag)}/tags/${name}`, { value })).status, 200);
    }
    t.deepEqual(await listed(alice, '&tag=env:prod'), await order([made[0]!, made[1]!]), 'tag name:value');
    t.deepEqual(await listed(alice, '&tag=team'), await order([made[0]!, made[2]!]), 'tag name: any value');
    t.deepEqual(await listed(alice, '&tag=env:prod&tag=team:a'), [made[0]], 'every tag filter must match');
    t.deepEqual(await listed(alice, '&tag=env:staging'), []);

    t.is((await alice.post(`/api/keys/${pathTtag(made[4]!)}/disable`)).status, 200);
    t.is((await alice.post(`/api/keys/${pathTtag(made[5]!)}/expire`)).status, 200);
    t.deepEqual(await listed(alice, '&state=disabled'), [made[4]]);
    t.deepEqual(await listed(alice, '&state=expired'), [made[5]]);
    t.deepEqual(await listed(alice, '&state=active'), await order(made.slice(0, 4)));
    t.deepEqual(await listed(alice, '&state=deleted'), [], 'no tombstone');
    t.deepEqual(await listed(alice, '&state=pending-deletion'), []);

    t.deepEqual(await listed(admin, '&owner=bob'), [bobs], 'owner: a principal name');
    t.deepEqual(await listed(admin, '&owner=nobody'), [], 'an owner no principal has lists nothing');
    const at = (await view(made[2]!)).createdAt as string;
    const before = await listed(alice, `&createdBefore=${encodeURIComponent(at)}`);
    const after = await listed(alice, `&createdAfter=${encodeURIComponent(at)}`);
    t.true(before.length > 0 && after.length > 0);
    for (const ttag of before) t.true(Date.parse((await view(ttag)).createdAt) < Date.parse(at), 'strictly before');
    for (const ttag of after) t.true(Date.parse((await view(ttag)).createdAt) > Date.parse(at), 'strictly after');
    t.false([...before, ...after].includes(made[2]!));
  });

  check(
    `${store}: GET /api/keys shows owned keys, keys granted directly or to a group; admin sees all; a scoped session its scope`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const admin = await signIn(gw, 'admin');
      const alice = await signIn(gw, 'alice');
      const [own, toBob, toOps] = [await createKey(alice), await createKey(alice), await createKey(alice)].map((key) => key.ttag);
      t.is((await alice.put(`/api/keys/${pathTtag(toBob!)}/acl/bob`, { rights: ['read'] })).status, 200);
      t.is((await alice.put(`/api/keys/${pathTtag(toOps!)}/acl/ops`, { rights: ['encrypt'] })).status, 200);
      t.is((await admin.put('/api/groups/ops/members/carol')).status, 204);
      const bobKey = (await createKey(await signIn(gw, 'bob'))).ttag;

      const sorted = (list: readonly string[]) => [...list].sort();
      t.deepEqual(sorted(await listed(alice)), sorted([own!, toBob!, toOps!]), 'the owner');
      t.deepEqual(sorted(await listed(await signIn(gw, 'bob'))), sorted([toBob!, bobKey]), 'a grantee, beside its own key');
      t.deepEqual(await listed(await signIn(gw, 'carol')), [toOps], "a group's member");
      t.deepEqual(sorted(await listed(admin)), sorted([own!, toBob!, toOps!, bobKey]), 'keys.list.all: every key');
      const audra = await (await signIn(gw, 'audra')).get('/api/keys');
      t.like(audra, { status: 403, body: { code: 'ROLE_DENIED' } }, 'an auditor holds no keys.list');
      t.is((await admin.put('/api/principals/audra', { roles: ['auditor', 'user'] })).status, 200);
      t.deepEqual(await listed(await signIn(gw, 'audra')), [], 'a stranger to every key sees none');

      const signer = await makeSigner('ES256');
      const minted = await gw.call('POST', '/api/session/scoped', {
        headers: { Authorization: `Bearer ${alice.sessionId}` },
        body: { objects: [toBob], senderKey: signer.publicJwk },
      });
      t.is(minted.status, 201, minted.text);
      const scopedList = await gw.bound(signer, 'GET', '/api/keys', { bearer: minted.body.sessionId });
      t.is(scopedList.status, 200, scopedList.text);
      t.deepEqual(ttags(scopedList.body.items), [toBob], 'a scoped session: its scope only');
    },
  );

  check(`${store}: a bad limit, cursor or filter of GET /api/keys is 400 BAD_REQUEST naming it`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const naming = async (query: string, field: string) => {
      const reply = await alice.get(`/api/keys?${query}`);
      t.like(reply, { status: 400, body: { code: 'BAD_REQUEST' } }, query);
      t.regex(String(reply.body.detail), new RegExp(field), query);
    };
    for (const limit of ['0', '1001', '-1', 'ten', '2.5']) await naming(`limit=${limit}`, 'limit');
    await naming('cursor=bm90LWEtY3Vyc29y', 'cursor');
    const versionsCursor = (await (async () => {
      const { ttag } = await createKey(alice);
      await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`);
      return (await alice.get(`/api/keys/${pathTtag(ttag)}/versions?limit=1`)).body.next as string;
    })()) as string;
    await naming(`cursor=${encodeURIComponent(versionsCursor)}`, 'cursor');
    await naming('state=gone', 'state');
    await naming(`q=${'x'.repeat(257)}`, 'q');
    await naming('q=', 'q');
    await naming('createdAfter=yesterday', 'createdAfter');
    await naming('tag=has%20space', 'tag');
    await naming(`tag=${'n'.repeat(129)}`, 'tag');
    await naming(Array.from({ length: 11 }, (_, n) => `tag=t${n}`).join('&'), 'tag');
    await naming('kind=user', 'kind');
  });

  check(
    `${store}: tags are set, replaced and deleted; names and values keep their character set and lengths; the 51st is 409 TAG_LIMIT`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice);
      const tags = `/api/keys/${pathTtag(ttag)}/tags`;
      const tagsOf = async () => (await alice.get(`/api/keys/${pathTtag(ttag)}`)).body.tags;
      t.deepEqual(await tagsOf(), {}, 'a new key: {}');
      t.like(await alice.put(`${tags}/env`, { value: 'prod' }), { status: 200, body: { name: 'env', value: 'prod' } });
      t.like(await alice.put(`${tags}/env`, { value: 'dev' }), { status: 200, body: { name: 'env', value: 'dev' } });
      const name = 'A-z_0.9/=+@x';
      t.is((await alice.put(`${tags}/${encodeURIComponent(name)}`, { value: '' })).status, 200, 'the whole character set; an empty value');
      t.deepEqual(await tagsOf(), { env: 'dev', [name]: '' });
      t.is((await alice.del(`${tags}/env`)).status, 204);
      t.is((await alice.del(`${tags}/env`)).status, 204, 'a tag the key does not carry: 204, nothing changes');
      t.deepEqual(await tagsOf(), { [name]: '' });

      for (const [path, body, field] of [
        [`${tags}/${'n'.repeat(129)}`, { value: 'v' }, 'name'],
        [`${tags}/has%20space`, { value: 'v' }, 'name'],
        [`${tags}/a:b`, { value: 'v' }, 'name'],
        [`${tags}/ok`, { value: 'v'.repeat(257) }, 'value'],
        [`${tags}/ok`, { value: 'bell\u0007' }, 'value'],
        [`${tags}/ok`, {}, 'value'],
      ] as const) {
        const reply = await alice.put(path, body);
        t.like(reply, { status: 400, body: { code: 'BAD_REQUEST' } }, path);
        t.regex(String(reply.body.detail), new RegExp(field), path);
      }
      t.is((await alice.put(`${tags}/${'n'.repeat(128)}`, { value: 'v'.repeat(256) })).status, 200, 'the longest name and value');
      for (let n = 0; n < 48; n += 1) t.is((await alice.put(`${tags}/t${n}`, { value: String(n) })).status, 200);
      t.is(Object.keys(await tagsOf()).length, 50);
      t.like(await alice.put(`${tags}/one-more`, { value: 'x' }), { status: 409, body: { code: 'CONFLICT', reason: 'TAG_LIMIT' } });
      t.is((await alice.put(`${tags}/t0`, { value: 'replaced' })).status, 200, 'replacing a 50th tag is no 51st');
      t.false('one-more' in (await tagsOf()));
    },
  );

  check(`${store}: the right tag lets a grantee tag and untag a key; a reader or a stranger is 403, an unknown key 404`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const bob = await signIn(gw, 'bob');
    const carol = await signIn(gw, 'carol');
    const { ttag } = await createKey(alice);
    const path = `/api/keys/${pathTtag(ttag)}`;
    t.is((await alice.put(`${path}/acl/bob`, { rights: ['tag'] })).status, 200);
    t.is((await alice.put(`${path}/acl/carol`, { rights: ['read'] })).status, 200);
    t.like(await bob.put(`${path}/tags/by`, { value: 'bob' }), { status: 200, body: { name: 'by', value: 'bob' } });
    t.deepEqual((await alice.get(path)).body.tags, { by: 'bob' });
    t.like(await carol.put(`${path}/tags/by`, { value: 'carol' }), { status: 403, body: { code: 'ACL_DENIED' } });
    t.like(await carol.del(`${path}/tags/by`), { status: 403, body: { code: 'ACL_DENIED' } });
    const stranger = await signIn(gw, 'audra');
    t.like(await stranger.put(`${path}/tags/by`, { value: 'x' }), { status: 403, body: { code: 'ROLE_DENIED' } });
    t.is((await bob.del(`${path}/tags/by`)).status, 204);
    t.deepEqual((await alice.get(path)).body.tags, {});
    t.like(await alice.put(`/api/keys/${'A'.repeat(32)}/tags/by`, { value: 'x' }), { status: 404, body: { code: 'NOT_FOUND' } });
    t.deepEqual(await listed(bob), [ttag], 'a grantee of tag alone sees the key listed');
  });
}
