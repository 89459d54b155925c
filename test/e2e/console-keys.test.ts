import test from 'ava';
import type { Page } from 'playwright-core';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { createKey, signIn } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';

/** A key's page in Chromium: versions, state changes (each confirmed), and the encrypt/decrypt tool, each as /api then reads it. */

/** Clicks `selector`, answers the confirm it raises (`accept` or not), and answers the question asked. */
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

await withChromium('console tests', (browser) => {
  test("a key's page rotates it, retires the versions below a minimum once confirmed, and lists each version's state", async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createKey(page, 'versioned key');
    const path = `/api/keys/${encodeURIComponent(ttag)}`;

    await page.click('#key-rotate');
    await page.locator('#key-versions strong[data-field="version"]', { hasText: '2' }).waitFor();
    t.like((await gw.call('GET', path, { headers: admin })).body, { version: 2, minVersion: 1 });

    await page.fill('#key-min-version-value', '2');
    const dismissed = await confirmed(page, '#key-min-version-button', false);
    t.regex(dismissed, /Retire every version below 2\?/);
    t.like((await gw.call('GET', path, { headers: admin })).body, { minVersion: 1 }, 'a dismissed confirm changes nothing');

    await confirmed(page, '#key-min-version-button', true);
    await page.locator('#key-versions strong[data-field="min-version"]', { hasText: '2' }).waitFor();
    t.like((await gw.call('GET', path, { headers: admin })).body, { minVersion: 2 });
    const states = await page
      .locator('#key-versions-list tbody tr')
      .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-version'), row.querySelector('[data-field="state"]')?.textContent]));
    t.deepEqual(states, [
      ['2', 'active'],
      ['1', 'retired'],
    ]);
  });

  test('disable and enable are each confirmed first, a dismissed confirm changing nothing; a disabled key refuses encryption', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createKey(page, 'stateful key');
    const state = async () => (await gw.call('GET', `/api/keys/${encodeURIComponent(ttag)}`, { headers: admin })).body.state;

    t.regex(await confirmed(page, '#key-disable', false), /^Disable this key\?/);
    t.is(await state(), 'active');
    t.is(await page.locator('#key-detail dd[data-field="state"]').textContent(), 'active');

    await confirmed(page, '#key-disable', true);
    await page.locator('#key-detail dd[data-field="state"]', { hasText: 'disabled' }).waitFor();
    t.is(await state(), 'disabled');
    t.is(await page.locator('#key-disable').count(), 0, 'no disable on a disabled key');

    await page.fill('#crypto-text', 'refused');
    await page.click('#crypto-encrypt');
    const refused = page.locator('#key-crypto p.error');
    await refused.waitFor();
    t.is(await refused.getAttribute('data-code'), 'KEY_DISABLED');

    t.regex(await confirmed(page, '#key-enable', true), /^Enable this key\?/);
    await page.locator('#key-detail dd[data-field="state"]', { hasText: 'active' }).waitFor();
    t.is(await state(), 'active');
  });

  test('the crypto tool encrypts text to its sealed text and decrypts it back, after a rotation too', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createKey(page, 'crypto key');
    const text = 'the quick brown fox — ünïcödé';
    await page.fill('#crypto-text', text);
    await page.click('#crypto-encrypt');
    await page.waitForFunction(() => (document.getElementById('crypto-sealed') as HTMLTextAreaElement | null)?.value.startsWith('kg:v1:'));
    const sealed = await page.inputValue('#crypto-sealed');
    const opened = await gw.call('POST', '/api/crypto/decrypt', { headers: admin, body: { ttag, sealed } });
    t.is(Buffer.from(opened.body.plaintext, 'base64').toString('utf8'), text, 'the sealed text the page shows is the one /api opens');

    await page.click('#key-rotate');
    await page.locator('#key-versions strong[data-field="version"]', { hasText: '2' }).waitFor();
    await page.click('#crypto-decrypt');
    await page.locator('#crypto-plaintext').waitFor();
    t.is(await page.locator('#crypto-plaintext').textContent(), text, 'sealed text names its version: it opens after a rotation');
  });
});
