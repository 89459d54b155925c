import test from 'ava';
import { startDemoServer } from '../../scripts/demo-server.js';

test('the demo server serves the page with the gateway URL written in, and its bundled script', async (t) => {
  const demo = await startDemoServer({ gatewayUrl: 'http://127.0.0.1:8787/"><script>' });
  const page = await fetch(demo.url);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  const html = await page.text();
  t.true(html.includes('<meta name="keygate-gateway" content="http://127.0.0.1:8787/&quot;>&lt;script>">'), 'escaped into the attribute');
  const script = await fetch(new URL('demo.js', demo.url));
  t.is(script.status, 200);
  t.regex(script.headers.get('content-type') ?? '', /^text\/javascript/);
  const code = await script.text();
  t.true(code.includes('keygate export v1'), 'the client is bundled in');
  t.false(/from\s*["']node:|require\(/.test(code), 'no Node import reaches the page');
  t.is((await fetch(new URL('demo.css', demo.url))).status, 200);
  await demo.close();
});

test('the demo server answers with a strict content policy and no referrer, and 404 for anything else', async (t) => {
  const demo = await startDemoServer({ gatewayUrl: '' });
  const page = await fetch(demo.url);
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  t.is(page.headers.get('referrer-policy'), 'no-referrer');
  t.is((await fetch(new URL('../package.json', demo.url))).status, 404);
  t.is((await fetch(new URL('demo.ts', demo.url))).status, 404);
  t.is((await fetch(demo.url, { method: 'POST' })).status, 404);
  await demo.close();
});
