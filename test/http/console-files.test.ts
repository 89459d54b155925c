import test from 'ava';
import { startGateway } from '../_support/gateway.js';

/** The console's files on a real socket: the policy headers on each, no cookie, nothing for other origins. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const FILES = [
  ['/console/', /^text\/html; charset=utf-8$/],
  ['/console/index.html', /^text\/html; charset=utf-8$/],
  ['/console/console.js', /^text\/javascript; charset=utf-8$/],
  ['/console/console.css', /^text\/css; charset=utf-8$/],
  ['/console/favicon.svg', /^image\/svg\+xml$/],
] as const;

test('each console file is served with the strict policy, no framing, no referrer, no cookie and no CORS header', async (t) => {
  const gw = await startGateway(t);
  for (const [path, type] of FILES) {
    const reply = await fetch(`${gw.url}${path}`, { headers: { Origin: 'https://elsewhere.example' } });
    t.is(reply.status, 200, path);
    t.regex(reply.headers.get('content-type') ?? '', type, path);
    t.is(reply.headers.get('content-security-policy'), CSP, path);
    t.is(reply.headers.get('x-frame-options'), 'DENY', path);
    t.is(reply.headers.get('referrer-policy'), 'no-referrer', path);
    t.is(reply.headers.get('x-content-type-options'), 'nosniff', path);
    t.is(reply.headers.get('set-cookie'), null, path);
    t.is(reply.headers.get('access-control-allow-origin'), null, path);
    t.true((await reply.text()).length > 0, path);
  }
});

test('the page holds no inline script or style: everything it runs comes from its own files', async (t) => {
  const gw = await startGateway(t);
  const html = await (await fetch(`${gw.url}/console/`)).text();
  t.notRegex(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script element');
  t.notRegex(html, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style, no event attribute');
  t.regex(html, /<script type="module" src="console.js"><\/script>/);
});

test('/console redirects to /console/ with a relative Location; other methods 405; an unknown file 404', async (t) => {
  const gw = await startGateway(t);
  const bare = await fetch(`${gw.url}/console`, { redirect: 'manual' });
  t.is(bare.status, 302);
  t.is(bare.headers.get('location'), 'console/');
  const post = await gw.call('POST', '/console/', { body: {} });
  t.is(post.status, 405);
  t.is(post.headers.get('allow'), 'GET, HEAD');
  t.deepEqual(post.body, { error: 'method POST not allowed on /console/' });
  const missing = await gw.call('GET', '/console/%2e%2e%2fpackage.json');
  t.is(missing.status, 404);
  const unknown = await gw.call('GET', '/console/secrets.json');
  t.is(unknown.status, 404);
  t.deepEqual(unknown.body, { error: 'no route GET /console/secrets.json' });
  t.is(unknown.headers.get('content-security-policy'), CSP);
  const head = await fetch(`${gw.url}/console/console.js`, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(await head.text(), '');
});

test('a gateway with the console off answers 404 under /console, the root surface way', async (t) => {
  const gw = await startGateway(t, { console: 'off' });
  const reply = await gw.call('GET', '/console/');
  t.is(reply.status, 404);
  t.deepEqual(reply.body, { error: 'no route GET /console/' });
  t.is(reply.headers.get('content-security-policy'), null);
});
