import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { type DemoServer, startDemoServer } from '../../scripts/demo-server.js';
import { withChromium } from '../_support/browser.js';
import { type BrowserGateway, startBrowserGateway } from '../_support/browser-gateway.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS } from '../_support/gateway.js';

/**
 * The browser client in Debian's chromium, headless: the demo page on one origin, the gateway on
 * another, real preflights, proofs and export unwrap done by the page's WebCrypto.
 */
const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));

interface Stage {
  readonly browser: Browser;
  readonly demo: DemoServer;
  readonly gw: BrowserGateway;
  /** The page's origin (allowed) and the same page on a host name the allowlist does not have. */
  readonly allowedOrigin: string;
  readonly refusedOrigin: string;
}

async function stage(t: ExecutionContext, browser: Browser): Promise<Stage> {
  const demo = await startDemoServer({ gatewayUrl: '' });
  t.teardown(() => demo.close());
  const allowedOrigin = new URL(demo.url).origin;
  const gw = await startBrowserGateway(t, [allowedOrigin]);
  return { browser, demo, gw, allowedOrigin, refusedOrigin: allowedOrigin.replace('127.0.0.1', 'localhost') };
}

async function openDemo(s: Stage, origin: string): Promise<Page> {
  const context = await s.browser.newContext({ viewport: { width: 1280, height: 860 } });
  // A cookie the gateway's host would get with a credentialed fetch: the client must never send it.
  await context.addCookies([{ name: 'probe', value: 'never-sent', domain: '127.0.0.1', path: '/' }]);
  const page = await context.newPage();
  await page.goto(`${origin}/?gateway=${encodeURIComponent(s.gw.url)}`);
  await page.locator('body[data-ready="true"]').waitFor();
  return page;
}

/** Clicks a step's button (or submits its form) and answers its output once it settled. */
async function runStep(t: ExecutionContext, page: Page, button: string, output: string): Promise<Record<string, string>> {
  await page.click(button);
  await page.waitForFunction((id) => ['ok', 'error'].includes(document.getElementById(id)?.dataset.state ?? ''), output.slice(1));
  const out = page.locator(output);
  t.is(await out.getAttribute('data-state'), 'ok', `${output}: ${await out.textContent()}`);
  const fields: Record<string, string> = {};
  for (const dd of await out.locator('dd').all()) fields[(await dd.getAttribute('data-field'))!] = (await dd.textContent())!;
  return fields;
}

async function signInAndMint(t: ExecutionContext, page: Page) {
  await page.fill('#user', 'alice');
  await page.fill('#password', PASSWORDS.alice);
  const signedIn = await runStep(t, page, '#sign-in', '#sign-in-out');
  const key = await runStep(t, page, '#create-key', '#key-out');
  const scoped = await runStep(t, page, '#mint-scoped', '#scoped-out');
  return { signedIn, key, scoped };
}

/** The key as a Node client sees it: the seven-operation export, opened with unwrapKey. */
async function exportedByNode(gw: BrowserGateway, ttag: string): Promise<Buffer> {
  const pair = clientKeyPair();
  const reply = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': await gw.login('alice') },
    body: { ttag, clientPubKey: pair.publicKey },
  });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return pair.unwrap(reply.body.wrapped);
}

await withChromium('browser tests', (browser) => {
  test('the demo page signs in, binds a scoped session to its own key, exports, round-trips and signs out', async (t) => {
    const s = await stage(t, browser);
    const page = await openDemo(s, s.allowedOrigin);
    const health = await runStep(t, page, '#health', '#health-out');
    t.like(health, { status: 'ok', 'key server': s.gw.gateway.ksFingerprint });
    const { signedIn, key, scoped } = await signInAndMint(t, page);
    t.like(signedIn, { user: 'alice', session: 'password, unbound' });
    t.like(scoped, { 'page key': 'P-256, non-extractable', bound: 'true' });
    t.regex(scoped.jkt!, /^[A-Za-z0-9_-]{43}$/);
    const exported = await runStep(t, page, '#export', '#export-out');
    t.regex(exported['SHA-256']!, /^[0-9a-f]{64}$/);
    const dataKey = await exportedByNode(s.gw, key.ttag!);
    t.is(exported['SHA-256'], createHash('sha256').update(dataKey).digest('hex'), 'the page unwrapped the key a Node client sees');
    const shown = await page.content();
    for (const spelling of ['hex', 'base64', 'base64url'] as const)
      t.false(shown.includes(dataKey.toString(spelling)), `the key is not shown (${spelling})`);
    const trip = await runStep(t, page, '#round-trip', '#round-trip-out');
    // The decrypt named the version the encrypt answered (keygate/client carries it in the sealed value).
    t.like(trip, { 'key version': '1', decrypted: 'attack at dawn', 'round trip': 'identical' });
    await runStep(t, page, '#sign-out', '#sign-out-out');
    await mkdir(RESULTS, { recursive: true });
    await page.screenshot({ path: `${RESULTS}demo.png`, fullPage: true });

    const fromPage = s.gw.seen.filter((r) => r.origin === s.allowedOrigin);
    t.true(
      fromPage.some((r) => r.method === 'OPTIONS' && r.path === '/api/session' && r.status === 204),
      'a real preflight before the JSON login',
    );
    t.true(
      fromPage.some((r) => r.method === 'OPTIONS' && r.path === '/api/crypto/encrypt'),
      'a real preflight before a bound request',
    );
    const bound = fromPage.filter((r) => r.method !== 'OPTIONS' && r.hasProof);
    t.deepEqual(
      bound.map((r) => `${r.method} ${r.path.replace(/keys\/[^/]+/, 'keys/{ttag}')} ${r.status}`),
      ['POST /api/keys/{ttag}/export 200', 'POST /api/crypto/encrypt 200', 'POST /api/crypto/decrypt 200', 'DELETE /api/session 204'],
    );
    t.false(
      s.gw.seen.some((r) => r.hasCookie),
      'no request carried a cookie',
    );
    await page.context().close();
  });

  test('a proof captured from the page is refused when sent again: 401 PROOF_REPLAYED', async (t) => {
    const s = await stage(t, browser);
    const page = await openDemo(s, s.allowedOrigin);
    const captured = new Promise<{ headers: Record<string, string>; body: Buffer | null; url: string }>((resolve) => {
      page.on('request', (request) => {
        if (request.method() !== 'POST' || !request.url().endsWith('/api/crypto/encrypt')) return;
        void request.allHeaders().then((headers) => resolve({ headers, body: request.postDataBuffer(), url: request.url() }));
      });
    });
    await signInAndMint(t, page);
    await runStep(t, page, '#round-trip', '#round-trip-out');
    const first = await captured;
    t.truthy(first.headers.dpop);
    t.regex(first.headers.authorization ?? '', /^Bearer /);
    const replay = await fetch(first.url, {
      method: 'POST',
      headers: { Authorization: first.headers.authorization!, DPoP: first.headers.dpop!, 'Content-Type': first.headers['content-type']! },
      body: new Uint8Array(first.body!),
    });
    t.is(replay.status, 401);
    t.like(await replay.json(), { code: 'PROOF_REPLAYED' });
    await page.context().close();
  });

  test('a page on an origin outside the allowlist is blocked by the browser, and the gateway logs it', async (t) => {
    const s = await stage(t, browser);
    const page = await openDemo(s, s.refusedOrigin);
    await page.fill('#user', 'alice');
    await page.fill('#password', PASSWORDS.alice);
    await page.click('#sign-in');
    const out = page.locator('#sign-in-out[data-state="error"]');
    await out.waitFor();
    t.is(await out.getAttribute('data-error'), 'TypeError');
    t.regex((await out.textContent())!, /network error/);
    const direct = await page.evaluate(async (url) => {
      try {
        await fetch(`${url}/api/health`);
        return 'read';
      } catch (error) {
        return (error as Error).name;
      }
    }, s.gw.url);
    t.is(direct, 'TypeError', 'even a simple GET is unreadable cross-origin');
    const fromPage = s.gw.seen.filter((r) => r.origin === s.refusedOrigin);
    t.true(
      fromPage.some((r) => r.method === 'OPTIONS' && r.path === '/api/session'),
      'the preflight reached the gateway',
    );
    t.false(
      fromPage.some((r) => r.method === 'POST'),
      'the browser never sent the login itself',
    );
    t.true(
      s.gw.logger.lines.some((line) => line.level === 'warn' && line.fields.origin === s.refusedOrigin),
      'refused origin logged',
    );
    await page.context().close();
  });
});
