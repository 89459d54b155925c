import test from 'ava';
import type { Page } from 'playwright-core';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { createKey, grant, signIn } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';

/**
 * The key inventory in the console (docs/spec.md §4.23), in Chromium: the keys screen lists and
 * searches GET /api/keys, a key made through the root surface among them; a key's page sets tags and
 * aliases, schedules and cancels its deletion, and shows its last use; each as /api then reads it.
 */

/** Clicks `selector`, answers the confirm it raises, and answers the question asked. */
async function confirmed(page: Page, selector: string, accept: boolean): Promise<string> {
  const asked = page.waitForEvent('dialog');
  const clicked = page.click(selector);
  const dialog = await asked;
  const question = dialog.message();
  if (dialog.type() !== 'confirm') throw new Error(`a ${dialog.type()} dialog, not a confirm`);
  await (accept ? dialog.accept() : dialog.dismiss());
  await clicked;
  return question;
}

/** The ttags the key list shows once it holds `count` rows (the page redraws when its answer lands). */
async function listed(page: Page, count: number): Promise<string[]> {
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('#keys-list tbody tr').length === n || (n === 0 && document.querySelector('#key-list p.muted') !== null),
    count,
  );
  return page.locator('#keys-list tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-ttag')!));
}

/**
 * The ttags the key list shows once it shows `expected`, or after 10 s what it shows then: the caller
 * compares, so a page that never shows them fails on its rows, not on a timeout.
 */
async function shown(page: Page, expected: string[]): Promise<string[]> {
  const rows = () => page.locator('#keys-list tbody tr').evaluateAll((list) => list.map((row) => row.getAttribute('data-ttag')!));
  await page
    .waitForFunction(
      (want) => JSON.stringify([...document.querySelectorAll('#keys-list tbody tr')].map((row) => row.getAttribute('data-ttag'))) === want,
      JSON.stringify(expected),
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  return rows();
}

await withChromium('console tests', (browser) => {
  test('the keys screen lists GET /api/keys, a key made through the root POST /keys among them, searches by label, tag, state and owner, and pages', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    const alice = { Authorization: `Bearer ${await gw.login('alice')}` };
    const root = (await gw.call('POST', '/keys', { headers: { 'X-Session': await gw.login('admin') } })).body.ttag as string;
    const make = async (label: string, as = admin) =>
      (await gw.call('POST', '/api/keys', { headers: as, body: { label } })).body.ttag as string;
    const first = await make('billing-1');
    const second = await make('billing-2');
    const other = await make('other');
    const alices = await make('alice key', alice);
    const key = (ttag: string) => `/api/keys/${encodeURIComponent(ttag)}`;
    t.is((await gw.call('PUT', `${key(first)}/tags/env`, { headers: admin, body: { value: 'prod' } })).status, 200);
    t.is((await gw.call('POST', `${key(other)}/disable`, { headers: admin })).status, 200);

    await signIn(page, 'admin', PASSWORDS.admin);
    const all = await listed(page, 5);
    t.deepEqual(all, [alices, other, second, first, root], 'every key, newest first, the root one too');
    const expected = await gw.call('GET', '/api/keys', { headers: admin });
    t.deepEqual(
      all,
      expected.body.items.map((item: { ttag: string }) => item.ttag),
      'as GET /api/keys lists them',
    );

    const search = async (fill: () => Promise<unknown>, count: number) => {
      await fill();
      await page.click('#keys-search');
      return listed(page, count);
    };
    // A search whose answer has as many rows as the one before is told from it by its rows, not their count.
    const searchFor = async (fill: () => Promise<unknown>, expected: string[]) => {
      await fill();
      await page.click('#keys-search');
      return shown(page, expected);
    };
    t.deepEqual(await search(() => page.fill('#keys-q', 'billing'), 2), [second, first], 'by label prefix');
    t.deepEqual(await search(() => page.fill('#keys-tags', 'env:prod'), 1), [first], 'and by tag');
    await page.fill('#keys-q', '');
    await page.fill('#keys-tags', '');
    t.deepEqual(await searchFor(() => page.selectOption('#keys-state', 'disabled'), [other]), [other], 'by state');
    await page.selectOption('#keys-state', '');
    t.deepEqual(await searchFor(() => page.fill('#keys-owner', 'alice'), [alices]), [alices], 'by owner');
    t.regex((await page.locator(`#keys-list tr[data-ttag="${alices}"]`).textContent())!, /alice key/);

    await page.fill('#keys-owner', '');
    const more = [];
    for (let n = 0; n < 6; n += 1) more.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => make(`bulk ${n * 10 + i}`)))));
    const firstPage = await search(async () => undefined, 50);
    await page.click('#key-list button:has-text("Next page")');
    const secondPage = await listed(page, 15);
    t.deepEqual(new Set([...firstPage, ...secondPage]).size, 65, 'each of the 65 keys on exactly one page');
    t.true(secondPage.includes(root));
    await page.click(`#keys-list tr[data-ttag="${first}"] button`);
    await page.locator('#key-detail dd[data-field="ttag"]', { hasText: first }).waitFor();
    t.is(await page.locator('#key-tags tr[data-tag="env"] td[data-field="value"]').textContent(), 'prod');
    t.is(await grant(page, 'alice', ['tag']), 'tag', 'the right tag is offered to a grantee');
    await page.click('#key-list button:has-text("Newer")');
    t.deepEqual(await listed(page, 50), firstPage);
  });

  test("a key's page sets and deletes tags and aliases, opens by alias, schedules and cancels deletion once confirmed, and shows its last use", async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createKey(page, 'managed key');
    const view = async () => (await gw.call('GET', `/api/keys/${encodeURIComponent(ttag)}`, { headers: admin })).body;
    t.is(await page.locator('#key-detail dd[data-field="last-used"]').textContent(), 'never');

    await page.fill('#key-tag-name', 'team');
    await page.fill('#key-tag-value', 'payments');
    await page.click('#key-tag-set');
    await page.locator('#key-tags tr[data-tag="team"]').waitFor();
    t.deepEqual((await view()).tags, { team: 'payments' });
    await page.click('#key-tags tr[data-tag="team"] button');
    await page.locator('#key-tags p.muted', { hasText: 'No tags.' }).waitFor();
    t.deepEqual((await view()).tags, {});

    await page.fill('#key-alias-name', 'payments-current');
    await page.click('#key-alias-set');
    await page.locator('#key-aliases tr[data-alias="payments-current"]').waitFor();
    const aliases = await gw.call('GET', `/api/aliases?ttag=${encodeURIComponent(ttag)}`, { headers: admin });
    t.deepEqual(
      aliases.body.items.map((item: { alias: string; ttag: string }) => [item.alias, item.ttag]),
      [['payments-current', ttag]],
    );
    await page.fill('#open-ttag', 'alias/payments-current');
    await page.click('#open-key button[type="submit"]');
    await page.locator('#key-detail dd[data-field="ttag"]', { hasText: ttag }).waitFor();
    await page.click('#key-aliases tr[data-alias="payments-current"] button');
    await page.locator('#key-aliases p.muted', { hasText: 'No aliases.' }).waitFor();
    t.deepEqual((await gw.call('GET', `/api/aliases?ttag=${encodeURIComponent(ttag)}`, { headers: admin })).body.items, []);

    await page.fill('#crypto-text', 'used once');
    await page.click('#crypto-encrypt');
    await page.locator('#key-detail [data-field="last-used-operation"]', { hasText: 'encrypt' }).waitFor();
    t.like(await view(), { lastUsedOperation: 'encrypt' });

    await page.fill('#key-pending-days', '7');
    t.regex(await confirmed(page, '#key-schedule-deletion', false), /after 7 days\?/);
    t.is((await view()).state, 'active', 'a dismissed confirm changes nothing');
    const before = Date.now();
    await confirmed(page, '#key-schedule-deletion', true);
    await page.locator('#key-detail dd[data-field="state"]', { hasText: 'pending-deletion' }).waitFor();
    const pending = await view();
    t.is(pending.state, 'pending-deletion');
    const wait = Date.parse(pending.deletionAt) - before;
    t.true(wait > 6.9 * 86_400_000 && wait < 7.1 * 86_400_000, `deletionAt ${pending.deletionAt}`);
    t.truthy(await page.locator('#key-deletion strong[data-field="deletion-at"]').textContent());
    await page.click('#crypto-encrypt');
    await page.locator('#key-crypto p.error[data-code="KEY_PENDING_DELETION"]').waitFor();

    t.regex(await confirmed(page, '#key-cancel-deletion', true), /comes back disabled/);
    await page.locator('#key-detail dd[data-field="state"]', { hasText: 'disabled' }).waitFor();
    t.is((await view()).state, 'disabled');
  });
});
