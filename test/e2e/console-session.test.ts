import test from 'ava';
import type { Page } from 'playwright-core';
import { withChromium } from '../_support/browser.js';
import { startBrowserGateway, startConsole } from '../_support/browser-gateway.js';
import { signIn } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';

/**
 * Where the console's session lives (memory, or sessionStorage when asked; never localStorage, a
 * cookie or a URL), and what its content policy stops in a real Chromium.
 */

/** Everything the page's origin has stored: both storages and its cookies. */
async function stored(page: Page) {
  const storages = await page.evaluate(() => ({ local: { ...window.localStorage }, session: { ...window.sessionStorage } }));
  return { ...storages, cookies: await page.context().cookies() };
}

await withChromium('console tests', (browser) => {
  test('a session lives in memory only: nothing stored, and a reload asks to sign in again', async (t) => {
    const { page } = await startConsole(t, browser);
    await signIn(page, 'alice', PASSWORDS.alice);
    t.deepEqual(await stored(page), { local: {}, session: {}, cookies: [] });
    await page.reload();
    await page.locator('#sign-in-button').waitFor();
    t.is(await page.locator('#whoami').count(), 0);
    t.false(page.url().includes('session'), page.url());
  });

  test("kept for the tab at the operator's word: in sessionStorage only, resumed on reload, removed at sign-out", async (t) => {
    const { gw, page } = await startConsole(t, browser);
    await signIn(page, 'alice', PASSWORDS.alice, { keep: true });
    const kept = await stored(page);
    t.deepEqual(Object.keys(kept.session), ['keygate.console.session']);
    t.deepEqual(kept.local, {});
    t.deepEqual(kept.cookies, []);
    await page.reload();
    await page.locator('#whoami').waitFor();
    t.regex((await page.locator('#whoami').textContent())!, /^alice/);
    await page.click('#sign-out');
    await page.locator('#sign-in-button').waitFor();
    t.deepEqual((await stored(page)).session, {});
    const after = await gw.call('GET', '/api/session', { headers: { Authorization: `Bearer ${kept.session['keygate.console.session']}` } });
    t.is(after.status, 401, 'signing out ended the session at the gateway');
    t.false(gw.seen.some((request) => request.hasCookie));
  });

  test('a session ended elsewhere sends the console back to sign-in, saying why, and forgets the kept id', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    await signIn(page, 'alice', PASSWORDS.alice, { keep: true });
    const id = (await stored(page)).session['keygate.console.session']!;
    t.is((await gw.call('DELETE', '/api/session', { headers: { Authorization: `Bearer ${id}` } })).status, 204);
    await page.click('#nav-health');
    const why = page.locator('#console > p.error');
    await why.waitFor();
    const expected = await gw.call('GET', '/api/session', { headers: { Authorization: `Bearer ${id}` } });
    t.is(expected.status, 401);
    t.is(await why.getAttribute('data-code'), expected.body.code);
    await page.locator('#sign-in-button').waitFor();
    t.deepEqual((await stored(page)).session, {});
  });

  test('with an allowlist naming another origin, the console works on its own, and its requests are not logged as refused', async (t) => {
    const { gw, page } = await startConsole(t, browser, ['https://app.example.com']);
    await signIn(page, 'alice', PASSWORDS.alice);
    t.true(
      gw.seen.some(
        (request) => request.method === 'POST' && request.path === '/api/session' && request.origin === gw.url && request.status === 201,
      ),
      'the login carried the page origin and succeeded',
    );
    t.deepEqual(
      gw.logger.lines.filter((line) => line.message === 'cross-origin request refused'),
      [],
    );
  });

  test('the content policy stops an injected inline script and a connection to another origin', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    type Probe = Window & { injected?: boolean; violations?: string[] };
    const outcome = await page.evaluate(
      async (elsewhere) => {
        const probe = window as Probe;
        probe.violations = [];
        document.addEventListener('securitypolicyviolation', (event) => probe.violations!.push(event.effectiveDirective));
        const script = document.createElement('script');
        script.textContent = 'window.injected = true';
        document.body.append(script);
        const image = document.createElement('img');
        image.src = `${elsewhere}/pixel.png`;
        document.body.append(image);
        let fetched = 'read';
        try {
          await fetch(`${elsewhere}/api/health`);
        } catch (error) {
          fetched = (error as Error).name;
        }
        return { injected: probe.injected === true, fetched };
      },
      gw.url.replace('127.0.0.1', 'localhost'),
    );
    // The violation events are queued: wait until the three have been reported.
    await page.waitForFunction(() => ((window as Probe).violations ?? []).length >= 3);
    const violations = await page.evaluate(() => (window as Probe).violations ?? []);
    t.false(outcome.injected, 'the inline script did not run');
    t.is(outcome.fetched, 'TypeError', 'the cross-origin fetch was refused');
    t.true(violations.includes('script-src-elem'), violations.join(', '));
    t.true(violations.includes('connect-src'), violations.join(', '));
    t.true(violations.includes('img-src'), violations.join(', '));
  });

  test('the console shows its own icon, served beside it under its policy: nothing asked of the root or of another origin', async (t) => {
    const gw = await startBrowserGateway(t, []);
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    const icon = page.waitForResponse((response) => new URL(response.url()).pathname === '/console/favicon.svg');
    await page.goto(`${gw.url}/console/`);
    const answer = await icon;
    t.is(answer.status(), 200);
    t.is(answer.headers()['content-type'], 'image/svg+xml');
    t.truthy(answer.headers()['content-security-policy']);
    const drawn = await page.evaluate(async () => {
      const image = new Image();
      image.src = 'favicon.svg';
      await image.decode();
      return image.naturalWidth;
    });
    t.true(drawn > 0, 'the icon is an image the page may draw');
    t.deepEqual(
      gw.seen.filter((request) => !request.path.startsWith('/console')).map((request) => request.path),
      [],
      'no /favicon.ico or anything else outside the console',
    );
  });
});
