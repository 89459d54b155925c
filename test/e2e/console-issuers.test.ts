import test from 'ava';
import { exportJWK, generateKeyPair } from 'jose';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { showScreen, signIn } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';

/** The trust screen's issuers (docs/spec.md §4.24) in Chromium: what the page sets is what /api then reads. */
await withChromium('console tests', (browser) => {
  test('an issuer of workload tokens is trusted from its JSON settings, shown, and no longer trusted', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    await signIn(page, 'admin', PASSWORDS.admin);
    await showScreen(page, 'trust');
    await page.locator('#issuers p.muted').waitFor();
    const settings = {
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks: { keys: [{ ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid: 'sa-1' }] },
      audiences: ['keygate'],
      algorithms: ['ES256'],
      principal: 'k8s-{kubernetes.io/serviceaccount/name}',
    };
    await page.fill('#issuer-name', 'cluster');
    await page.fill('#issuer-settings', JSON.stringify(settings));
    await page.click('#issuers button:has-text("Trust this issuer")');
    await page.locator('#issuers td', { hasText: /^cluster$/ }).waitFor();
    t.like((await gw.call('GET', '/api/trust/issuers/cluster', { headers: admin })).body, { ...settings, leeway: 30 });
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('#issuers button:has-text("Stop trusting")');
    await page.locator('#issuers p.muted').waitFor();
    t.is((await gw.call('GET', '/api/trust/issuers/cluster', { headers: admin })).status, 404);
  });
});
