import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';

/** docs/spec.md §4.22 items 1 and 10: the view lists the newest 20 versions; GET …/versions pages through all. */
test('the key view lists the newest 20 versions and counts the rest; GET /api/keys/{ttag}/versions pages through all, newest first', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice);
  const path = `/api/keys/${pathTtag(key.ttag)}`;
  t.false('versionsOmitted' in (await alice.get(path)).body, 'a key of one version omits nothing');
  for (let n = 2; n <= 26; n += 1) t.is((await alice.post(`${path}/rotate`)).status, 200);

  const view = (await alice.get(path)).body;
  t.is(view.version, 26);
  t.deepEqual(
    view.versions.map((listed: { version: number }) => listed.version),
    Array.from({ length: 20 }, (_, i) => 7 + i),
  );
  t.is(view.versionsOmitted, 6);

  const seen: number[] = [];
  let page = await alice.get(`${path}/versions?limit=10`);
  for (;;) {
    t.is(page.status, 200, page.text);
    t.true(page.body.complete);
    seen.push(...page.body.items.map((item: { version: number }) => item.version));
    if (page.body.next === undefined) break;
    page = await alice.get(`${path}/versions?limit=10&cursor=${encodeURIComponent(page.body.next)}`);
  }
  t.deepEqual(
    seen,
    Array.from({ length: 26 }, (_, i) => 26 - i),
  );
  const byDefault = await alice.get(`${path}/versions`);
  t.like(byDefault, { status: 200, body: { complete: true } });
  t.is(byDefault.body.items.length, 26);
  t.false('next' in byDefault.body);
  t.deepEqual(Object.keys(byDefault.body.items[0]).sort(), ['createdAt', 'state', 'version']);
});

test('a bad limit or cursor of GET /api/keys/{ttag}/versions is 400 naming it; a caller without read is refused', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice);
  const path = `/api/keys/${pathTtag(key.ttag)}/versions`;
  for (const limit of ['0', '1001', 'ten', '2.5']) {
    const refused = await alice.get(`${path}?limit=${limit}`);
    t.like(refused, { status: 400, body: { code: 'BAD_REQUEST' } }, `limit=${limit}`);
    t.regex(refused.body.detail, /limit/);
  }
  const badCursor = await alice.get(`${path}?cursor=bm90LWEtY3Vyc29y`);
  t.like(badCursor, { status: 400, body: { code: 'BAD_REQUEST' } });
  t.regex(badCursor.body.detail, /cursor/);
  t.like(await alice.get(`${path}?limit=1000`), { status: 200 });
  t.like(await bob.get(path), { status: 403, body: { code: 'ACL_DENIED' } });
});
