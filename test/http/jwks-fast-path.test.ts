import test, { type ExecutionContext } from 'ava';
import type { Middleware } from 'koa';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { createGateway } from '../../src/app/create-gateway.js';
import { asSession, createKey, pathTtag } from '../_support/api-client.js';
import { PASSWORDS, SEED, type TestGateway } from '../_support/gateway.js';
import { call, type Reply } from '../_support/http.js';

const ALLOWED = 'https://app.example.com';

/**
 * docs/spec.md §4.25 item 7: a published JWKS the gateway holds a fresh copy of is answered before Koa
 * builds a context, as a health probe is, with the answer the Koa route gives. A gateway whose Koa
 * stack counts the requests that reach it; its clock is the test's.
 */
async function countingGateway(t: ExecutionContext, config: { corsOrigins?: string[] } = {}) {
  const logger = new MemoryLogger();
  const clock = new ManualClock(Date.now());
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin }, metricsPort: 0, ...config },
    { logger, clock },
  );
  t.teardown(() => gateway.close());
  const reachedKoa: string[] = [];
  const counter: Middleware = (ctx, next) => (reachedKoa.push(`${ctx.method} ${ctx.url}`), next());
  gateway.app.middleware.unshift(counter as never);
  const { url } = await gateway.listen(0, '127.0.0.1');
  const login = await call(url, 'POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  const alice = asSession(
    { call: (method: string, path: string, options?: Parameters<typeof call>[3]) => call(url, method, path, options) } as TestGateway,
    login.body.sessionId,
  );
  const { ttag } = await createKey(alice, { type: 'ec-p256' });
  t.is((await alice.put(`/api/keys/${pathTtag(ttag)}/published`, { published: true })).status, 200);
  t.is((await alice.put('/api/aliases/issuer', { ttag })).status, 200);
  reachedKoa.length = 0;
  return {
    gateway,
    url,
    logger,
    clock,
    reachedKoa,
    alice,
    ttag,
    get: (path: string, headers: Record<string, string> = {}) => call(url, 'GET', path, { headers }),
  };
}

/** Every header but the two that differ between any two responses. */
function stableHeaders(reply: Reply): Record<string, string> {
  return Object.fromEntries([...reply.headers.entries()].filter(([name]) => name !== 'date' && name !== 'x-request-id'));
}

test('a published JWKS with a fresh copy is answered before Koa with the status, headers and body of the Koa route, 304 too', async (t) => {
  const gw = await countingGateway(t);
  const routed = await gw.get('/jwks/issuer.json');
  t.is(routed.status, 200, routed.text);
  t.deepEqual(gw.reachedKoa, ['GET /jwks/issuer.json'], 'the first fetch goes the Koa way and keeps the copy');
  gw.reachedKoa.length = 0;
  const fast = await gw.get('/jwks/issuer.json');
  t.deepEqual(gw.reachedKoa, [], 'the copy is answered before Koa');
  t.is(fast.text, routed.text);
  t.deepEqual(stableHeaders(fast), stableHeaders(routed));
  t.is(fast.headers.get('cache-control'), 'public, max-age=60');
  t.is(fast.headers.get('x-content-type-options'), 'nosniff');
  const etag = fast.headers.get('etag')!;
  const notModified = await gw.get('/jwks/issuer.json', { 'If-None-Match': etag });
  t.is(notModified.status, 304);
  t.is(notModified.text, '');
  t.is(notModified.headers.get('etag'), etag);
  t.deepEqual(gw.reachedKoa, []);
  const line = gw.logger.lines.filter((each) => each.message === 'request').at(-1)?.fields;
  t.like(line, { operation: 'jwks', method: 'GET', path: '/jwks/issuer.json', status: 304 });
  const scrape = await (await fetch(gw.gateway.metricsUrl()!)).text();
  t.regex(scrape, /keygate_http_requests_total\{operation="jwks",status="200"\} 2\n/);
});

test('a copy older than a second, a withdrawn key, a query, HEAD or a cross-origin fetch go the Koa way', async (t) => {
  const gw = await countingGateway(t, { corsOrigins: [ALLOWED] });
  t.is((await gw.get('/jwks/issuer.json')).status, 200);
  t.is((await gw.get(`/jwks/keys/${encodeURIComponent(gw.ttag)}.json`)).status, 200);
  gw.reachedKoa.length = 0;
  const crossOrigin = await gw.get('/jwks/issuer.json', { Origin: ALLOWED });
  t.is(crossOrigin.status, 200);
  t.is(crossOrigin.headers.get('access-control-allow-origin'), ALLOWED);
  t.is((await gw.get('/jwks/issuer.json?x=1')).status, 200);
  t.is((await call(gw.url, 'HEAD', '/jwks/issuer.json')).status, 200);
  t.deepEqual(gw.reachedKoa, ['GET /jwks/issuer.json', 'GET /jwks/issuer.json?x=1', 'HEAD /jwks/issuer.json']);
  gw.reachedKoa.length = 0;
  t.is((await gw.alice.put(`/api/keys/${pathTtag(gw.ttag)}/published`, { published: false })).status, 200);
  gw.reachedKoa.length = 0;
  gw.clock.advance(1000);
  const withdrawn = await gw.get('/jwks/issuer.json');
  t.is(withdrawn.status, 404, 'once the copy is a second old, the key server is asked again');
  t.deepEqual(gw.reachedKoa, ['GET /jwks/issuer.json']);
  gw.reachedKoa.length = 0;
  t.is((await gw.get('/jwks/issuer.json')).status, 404, 'a name that publishes nothing is the Koa route’s 404, never a fast answer');
  t.deepEqual(gw.reachedKoa, ['GET /jwks/issuer.json']);
});
