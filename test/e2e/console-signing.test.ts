import { createPublicKey, verify } from 'node:crypto';
import test from 'ava';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Page } from 'playwright-core';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { showScreen, signIn } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';

/** A signing key's page in Chromium (docs/spec.md §4.25): type, public keys and kids, the published JWKS, the sign/verify tool. */

/** Creates a key of `type` with the create form's type selector; answers its ttag as the page shows it. */
async function createSigningKey(page: Page, type: string, label: string): Promise<string> {
  await showScreen(page, 'keys');
  await page.fill('#key-label', label);
  await page.selectOption('#key-type', type);
  // An aes key's length has no meaning for a signing key: the form hides it.
  if ((await page.locator('#key-length').count()) !== 0) throw new Error('the length selector shows for a signing type');
  await page.click('#create-key-button');
  const ttag = page.locator('#key-detail dd[data-field="ttag"]');
  await ttag.waitFor();
  return (await ttag.textContent())!;
}

/** Clicks `selector` and accepts the confirm it raises. */
async function confirmed(page: Page, selector: string): Promise<void> {
  page.once('dialog', (dialog) => void dialog.accept());
  await page.click(selector);
}

await withChromium('console signing tests', (browser) => {
  test("a signing key's page shows its type and alg, and each version's PEM and kid, the kid the PEM's RFC 7638 thumbprint", async (t) => {
    const { gw, page } = await startConsole(t, browser);
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createSigningKey(page, 'ec-p256', 'console signing key');
    t.is(await page.locator('#key-detail dd[data-field="type"]').textContent(), 'ec-p256');
    t.is(await page.locator('#key-detail dd[data-field="alg"]').textContent(), 'ES256');
    t.is(await page.locator('#key-crypto').count(), 0, 'no encrypt/decrypt tool on a signing key');

    await page.click('#key-rotate');
    await page.locator('#key-public-keys-list tbody tr[data-version="2"]').waitFor();
    for (const version of [2, 1]) {
      const row = page.locator(`#key-public-keys-list tbody tr[data-version="${version}"]`);
      const pem = (await row.locator('[data-field="pem"]').textContent())!;
      const jwk = createPublicKey(pem).export({ format: 'jwk' }) as JWK;
      t.is(await row.locator('[data-field="kid"]').textContent(), await calculateJwkThumbprint(jwk, 'sha256'), `version ${version}`);
    }
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    const listed = await gw.call('GET', `/api/keys/${encodeURIComponent(ttag)}`, { headers: admin });
    t.like(listed.body, { type: 'ec-p256', version: 2 });
  });

  test('the sign tool signs text to a base64 signature node:crypto verifies; verify says valid, and invalid for other text', async (t) => {
    const { page } = await startConsole(t, browser);
    await signIn(page, 'admin', PASSWORDS.admin);
    await createSigningKey(page, 'ed25519', 'console sign tool');
    const pem = (await page.locator('#key-public-keys-list tbody tr[data-version="1"] [data-field="pem"]').textContent())!;
    const text = 'signed in the console — ünïcödé';
    await page.fill('#sign-text', text);
    await page.click('#sign-button');
    await page.waitForFunction(() => (document.getElementById('sign-signature') as HTMLTextAreaElement | null)?.value !== '');
    const signature = Buffer.from(await page.inputValue('#sign-signature'), 'base64');
    t.true(
      verify(null, Buffer.from(text, 'utf8'), createPublicKey(pem), signature),
      'the signature the page shows is the text UTF-8 signed',
    );

    await page.click('#sign-verify-button');
    await page.locator('#sign-verdict[data-valid="true"]').waitFor();
    t.is(await page.locator('#sign-verdict').textContent(), 'Valid (version 1)');
    await page.fill('#sign-text', `${text}!`);
    await page.click('#sign-verify-button');
    await page.locator('#sign-verdict[data-valid="false"]').waitFor();
    t.is(await page.locator('#sign-verdict').textContent(), 'Invalid');
  });

  test("the owner's publish switch serves the JWKS at the URL the page shows, and withdraws it", async (t) => {
    const { gw, page } = await startConsole(t, browser);
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createSigningKey(page, 'ec-p256', 'console published');
    t.is(await page.locator('#key-published [data-field="published"]').textContent(), 'not published');
    await confirmed(page, '#key-publish');
    const link = page.locator('#key-jwks-url');
    await link.waitFor();
    const url = (await link.textContent())!;
    t.true(url.endsWith(`/jwks/keys/${encodeURIComponent(ttag)}.json`), url);
    const served = await fetch(url);
    t.is(served.status, 200);
    const kid = await page.locator('#key-public-keys-list tbody tr[data-version="1"] [data-field="kid"]').textContent();
    t.deepEqual(
      ((await served.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid),
      [kid],
    );
    await confirmed(page, '#key-publish');
    await page.locator('#key-published [data-field="published"]').waitFor();
    t.is(await page.locator('#key-jwks-url').count(), 0);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    t.like((await gw.call('GET', `/api/keys/${encodeURIComponent(ttag)}`, { headers: admin })).body, { published: false });
  });
});
