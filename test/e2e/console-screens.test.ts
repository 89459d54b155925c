import test from 'ava';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { createAuthority } from '../_support/certificates.js';
import { createKey, createPrincipal, showScreen, signIn } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';

/** The administration screens in Chromium: each change made in the page is the one /api then reads. */

await withChromium('console tests', (browser) => {
  test('principals, groups, roles, policy and health screens act through /api', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);

    await createPrincipal(page, 'dora', 'dora-password-5');
    const row = page.locator('#principals tr[data-principal="dora"]');
    await row.locator('button', { hasText: 'Disable' }).click();
    await row.locator('td[data-field="state"]', { hasText: 'disabled' }).waitFor();
    t.like((await gw.call('GET', '/api/principals/dora', { headers: admin })).body, { disabled: true });

    await showScreen(page, 'groups');
    await page.locator('#groups-list tr[data-group="ops"] button', { hasText: 'Members' }).click();
    t.deepEqual(
      await page.locator('#groups-list tr[data-group]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-group'))),
      (await gw.call('GET', '/api/groups', { headers: admin })).body.items.map((g: { name: string }) => g.name),
      'the screen lists the groups /api lists, no name typed',
    );
    await page.fill('#group-member', 'bob');
    await page.click('#group-members-section button:has-text("Add to ops")');
    await page.locator('#group-members li', { hasText: 'bob' }).waitFor();
    const members = await gw.call('GET', '/api/groups/ops/members', { headers: admin });
    t.deepEqual(
      members.body.items.map((m: { name: string }) => m.name),
      ['bob'],
    );

    await showScreen(page, 'roles');
    await page.locator('#roles td', { hasText: 'auditor' }).first().waitFor();

    await showScreen(page, 'policy');
    const auto = page.locator('#policy-auto');
    const before = await auto.isChecked();
    await auto.click();
    await page.waitForFunction(
      (expected) => (document.getElementById('policy-auto') as HTMLInputElement | null)?.checked === expected,
      !before,
    );
    t.like((await gw.call('GET', '/api/policy/provisioning', { headers: admin })).body, { autoProvision: !before });

    await showScreen(page, 'health');
    await page.locator('#health-report').waitFor();
    t.is(await page.locator('#health-report dd[data-field="fingerprint"]').textContent(), gw.gateway.ksFingerprint);
    t.is(await page.locator('#health-report dd[data-field="check-keyServer"]').textContent(), 'ok');
  });

  test('an authority is trusted from its PEM', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);
    const authority = await createAuthority('Console Test CA');
    await showScreen(page, 'trust');
    await page.locator('#trust p.muted, #trust table').first().waitFor();
    await page.fill('#ca-pem', authority.pem);
    await page.click('#trust button:has-text("Trust this authority")');
    await page.locator('#trust td', { hasText: 'Console Test CA' }).waitFor();
    const trusted = await gw.call('GET', '/api/trust/authorities', { headers: admin });
    t.true(trusted.body.items.some((ca: { subject: string }) => ca.subject.includes('Console Test CA')));
  });

  test("a refusal is shown with the /api error's code and detail", async (t) => {
    const { gw, page } = await startConsole(t, browser);
    await page.fill('#user', 'alice');
    await page.fill('#password', 'not-alice-password');
    await page.click('#sign-in-button');
    const wrong = page.locator('#sign-in p.error');
    await wrong.waitFor();
    t.is(await wrong.getAttribute('data-code'), 'WRONG_CREDENTIAL');
    const said = (await wrong.textContent())!;
    t.regex(said, /^WRONG_CREDENTIAL \(HTTP 401\): \S/);
    t.is(said.split('WRONG_CREDENTIAL').length - 1, 1, `the code is said once: ${said}`);
    t.is(await page.locator('#console p.error').count(), 1, 'one message, not one per box');

    await signIn(page, 'alice', PASSWORDS.alice);
    await showScreen(page, 'principals');
    const denied = page.locator('#principals p.error');
    await denied.waitFor();
    const expected = await gw.call('GET', '/api/principals?limit=50', { headers: { Authorization: `Bearer ${await gw.login('alice')}` } });
    t.is(await denied.getAttribute('data-code'), expected.body.code);
    t.is(await denied.textContent(), `${expected.body.code} (HTTP ${expected.status}): ${expected.body.detail}`);

    const ttag = await createKey(page, 'alice key');
    t.truthy(ttag);
    await page.click('#acl-refresh');
    await page.fill('#grant-principal', 'nobody-here');
    await page.click('#grant-button');
    const unknown = page.locator('#acl p.error');
    await unknown.waitFor();
    t.regex((await unknown.getAttribute('data-code'))!, /^[A-Z_]+$/);
    t.regex((await unknown.textContent())!, /\(HTTP 4\d\d\): \S/);
  });
});
