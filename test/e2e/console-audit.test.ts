import test from 'ava';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { createKey, showScreen, signIn } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';

/**
 * The audit screen in Chromium: the console's own reads left out unless asked for, a record opened
 * with every field /api answers for it, and the timeline drawn on a scale with labelled axes.
 */

await withChromium('console tests', (browser) => {
  test("the audit screen leaves out the console's own reads unless asked, and shows everyone else's", async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createKey(page, 'audited key');
    await page.click('#acl-refresh');
    await page.locator('#acl').waitFor();
    const elsewhere = await gw.call('GET', `/api/keys/${encodeURIComponent(ttag)}`, { headers: admin });
    t.is(elsewhere.status, 200);
    const otherRead = elsewhere.headers.get('x-request-id')!;

    await showScreen(page, 'audit');
    await page.locator('#audit-rows').waitFor();
    await page.click('#audit-search');
    await page.locator('#audit-hidden').waitFor();
    const consoleReads = new Set(
      gw.seen
        .filter((seen) => seen.method === 'GET' && seen.path.startsWith('/api/') && seen.userAgent.includes('Chrome'))
        .map((seen) => seen.requestId),
    );
    t.true(consoleReads.size >= 3, 'the console read the key, its ACL and the log');
    const shown = () => page.locator('#audit-rows tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-request-id')));
    const hiddenView = await shown();
    t.deepEqual(
      hiddenView.filter((id) => consoleReads.has(id!)),
      [],
      'no read of this console is shown',
    );
    t.true(hiddenView.includes(otherRead), "another session's read of the same key is shown");
    t.true((await page.locator('#audit-rows tr[data-operation="keys.create"]').count()) === 1, "the console's own write is shown");

    await page.check('#audit-own-reads');
    await page.locator('#audit-rows tr.own-read').first().waitFor();
    const everything = await shown();
    t.true(
      everything.some((id) => consoleReads.has(id!)),
      'asked for, its reads are shown, marked',
    );
    t.is(await page.locator('#audit-hidden').count(), 0);
    const listed = await gw.call('GET', '/api/audit?limit=50', { headers: admin });
    t.true(everything.every((id) => listed.body.items.some((record: { requestId: string }) => record.requestId === id)));
  });

  test('a record opens with every field /api answers for it, request id and client address among them', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createKey(page, 'opened record');
    await showScreen(page, 'audit');
    const row = page.locator('#audit-rows tr[data-operation="keys.create"]');
    await row.waitFor();
    const id = (await row.getAttribute('data-id'))!;
    await row.locator('button').click();
    await page.locator('#audit-record').waitFor();
    const record = (await gw.call('GET', `/api/audit/${id}`, { headers: admin })).body;
    t.is(record.object, ttag);
    const fields = await page
      .locator('#audit-record dd')
      .evaluateAll((dds) => dds.map((dd) => [dd.getAttribute('data-field'), dd.textContent]));
    t.deepEqual(fields.map(([name]) => name).sort(), Object.keys(record).sort(), 'every field of the record, and only those');
    const value = (name: string) => fields.find(([field]) => field === name)?.[1];
    t.is(value('requestId'), record.requestId);
    t.is(value('clientAddress'), record.clientAddress);
    t.regex(value('clientAddress')!, /127\.0\.0\.1/);
    t.is(value('sessionRef'), record.sessionRef);
    t.is(value('at'), record.at);
    await page.click('#audit-record-close');
    t.is(await page.locator('#audit-record').count(), 0);
  });

  test('the timeline draws on a time scale with a labelled time axis and count axis', async (t) => {
    const { page } = await startConsole(t, browser);
    await signIn(page, 'admin', PASSWORDS.admin);
    await createKey(page, 'timeline key');
    await showScreen(page, 'audit');
    await page.locator('#audit-timeline').waitFor();
    const times = await page.locator('#audit-timeline text.time-label').allTextContents();
    t.true(times.length >= 1, 'at least one time label');
    for (const label of times) t.regex(label, /^\d\d:\d\d$/);
    const at = await page.locator('#audit-timeline text.time-label').first().getAttribute('data-at');
    t.regex(at!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/, 'a label stands at a whole minute');
    const counts = await page.locator('#audit-timeline .count-axis text').allTextContents();
    t.is(counts[0], '0');
    t.true(Number(counts.at(-1)) >= 1);
    t.regex((await page.locator('#audit-timeline figcaption').textContent())!, /^Operations per 1 minute of the records shown \(UTC\)/);
  });
});
