import test from 'ava';
import Koa from 'koa';
import mount from 'koa-mount';
import { listenHttp } from '../../src/app/http-listener.js';
import { clientKeyPair } from '../_support/client-key.js';
import { call } from '../_support/http.js';
import { boundExport, dpopClient, embeddableGateway } from './embedded-gateway.js';

/** The gateway's Koa app mounted under /kg in a host Koa app, on a real socket. */
async function hostedUnderKg(t: { teardown(fn: () => Promise<void>): void }, publicUrl?: string) {
  const gateway = await embeddableGateway(publicUrl === undefined ? {} : { publicUrl });
  t.teardown(() => gateway.close());
  const host = new Koa();
  host.use(async (ctx, next) => {
    if (ctx.path === '/') ctx.body = 'host page';
    else await next();
  });
  host.use(mount('/kg', gateway.app));
  const listener = await listenHttp(host.callback(), 0, '127.0.0.1');
  t.teardown(async () => void (await listener.drain(1000)));
  return { url: listener.url, base: `${listener.url}/kg` };
}

test('under koa-mount /kg, a DPoP-bound export works with htu naming the mounted URL', async (t) => {
  const { url, base } = await hostedUnderKg(t);
  const client = await dpopClient();
  const key = clientKeyPair();
  const run = await boundExport(base, base, client, key.publicKey);
  t.is(run.scoped.status, 201, run.scoped.text);
  t.is(run.exported.status, 200, run.exported.text);
  t.is(key.unwrap(run.exported.body.wrapped).length, 16);
  t.is((await call(url, 'GET', '/')).text, 'host page', 'the host keeps its own routes');
  const stripped = await client.send(base, url, 'POST', run.path, run.session, { clientPubKey: key.publicKey });
  t.is(stripped.status, 401, 'a proof for the path without the mount point names another URL');
  t.is(stripped.body.code, 'PROOF_BINDING_MISMATCH');
  t.regex(stripped.headers.get('www-authenticate') ?? '', /^DPoP .*error="invalid_dpop_proof".*algs="ES256 RS256"/);
});

test('under koa-mount /kg behind a proxy, htu is checked against publicUrl with its base path', async (t) => {
  const { base, url } = await hostedUnderKg(t, 'https://keys.example.com/kg/');
  const client = await dpopClient();
  const key = clientKeyPair();
  const run = await boundExport(base, 'https://keys.example.com/kg', client, key.publicKey);
  t.is(run.exported.status, 200, run.exported.text);
  t.is(key.unwrap(run.exported.body.wrapped).length, 16);
  const local = await client.send(base, base, 'GET', '/api/session', run.session);
  t.is(local.body.code, 'PROOF_BINDING_MISMATCH', 'the socket URL is not the public one');
  const noBase = await client.send(base, 'https://keys.example.com', 'GET', '/api/session', run.session);
  t.is(noBase.body.code, 'PROOF_BINDING_MISMATCH', 'nor is the public origin without the base path');
  t.is((await call(url, 'GET', '/kg/api/health')).status, 200);
});

test('under koa-mount /kg, the console is at /kg/console/: its redirect and its files stay under the mount point', async (t) => {
  const { base } = await hostedUnderKg(t);
  const page = await fetch(`${base}/console`);
  t.is(page.status, 200);
  t.is(page.url, `${base}/console/`);
  t.regex(await page.text(), /src="console.js"/);
  const script = await fetch(new URL('console.js', page.url));
  t.is(script.status, 200);
  t.regex(script.headers.get('content-type') ?? '', /^text\/javascript/);
});
