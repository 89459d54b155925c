import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type { Middleware } from 'koa';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { createGateway } from '../../src/app/create-gateway.js';
import { NoMetrics } from '../../src/ports/metrics.port.js';
import { withHealthProbes } from '../../src/transports/koa/http/health-probe.js';
import type { HealthUseCases } from '../../src/use-cases/index.js';
import { PASSWORDS, SEED, startFaultyGateway } from '../_support/gateway.js';
import { healthUntil } from '../_support/health-wait.js';
import { call, type Reply } from '../_support/http.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const ALLOWED = 'https://app.example.com';

/**
 * A gateway whose Koa stack counts the requests that reach it: a probe answered before Koa never
 * does. The counter is put first in Koa's own list before the handler is built (`listen`).
 */
async function countingGateway(t: ExecutionContext, config: { corsOrigins?: string[] } = {}) {
  const logger = new MemoryLogger();
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin }, metricsPort: 0, ...config },
    { logger },
  );
  t.teardown(() => gateway.close());
  const reachedKoa: string[] = [];
  const counter: Middleware = (ctx, next) => (reachedKoa.push(`${ctx.method} ${ctx.url}`), next());
  gateway.app.middleware.unshift(counter as never);
  const { url } = await gateway.listen(0, '127.0.0.1');
  return {
    gateway,
    url,
    logger,
    reachedKoa,
    get: (path: string, headers: Record<string, string> = {}) => call(url, 'GET', path, { headers }),
  };
}

/** Every header but the two that differ between any two responses. */
function stableHeaders(reply: Reply): Record<string, string> {
  return Object.fromEntries([...reply.headers.entries()].filter(([name]) => name !== 'date' && name !== 'x-request-id'));
}

test('a plain probe is answered before Koa, with the same status, headers and body as the Koa route', async (t) => {
  const gw = await countingGateway(t);
  for (const path of ['/health', '/api/health']) {
    const fast = await gw.get(path);
    t.deepEqual(gw.reachedKoa, [], `${path} never reached Koa`);
    // A query string sends the same probe the Koa way: the route answers it.
    const routed = await gw.get(`${path}?via=koa`);
    t.deepEqual(gw.reachedKoa, [`GET ${path}?via=koa`]);
    gw.reachedKoa.length = 0;
    t.is(fast.status, 200);
    t.is(fast.status, routed.status);
    t.deepEqual(fast.body, routed.body, path);
    t.deepEqual(stableHeaders(fast), stableHeaders(routed), path);
    t.regex(fast.headers.get('x-request-id') ?? '', /^[0-9a-f]{16}$/);
  }
  t.deepEqual(Object.keys((await gw.get('/health')).body), ['ok', 'ksFingerprint', 'sessions']);
  t.like((await gw.get('/api/health')).body, {
    ok: true,
    ksFingerprint: gw.gateway.ksFingerprint,
    checks: { keyServer: 'ok', auditStore: 'ok', sessionStore: 'ok' },
  });
});

test('a probe answered before Koa honours X-Request-Id and traceparent, writes its access line, is counted and leaves no audit record', async (t) => {
  const gw = await countingGateway(t);
  const reply = await gw.get('/health', { 'X-Request-Id': 'lb-probe-7', traceparent: TRACEPARENT });
  t.deepEqual(gw.reachedKoa, []);
  t.is(reply.headers.get('x-request-id'), 'lb-probe-7');
  t.is(reply.headers.get('traceparent'), TRACEPARENT);
  const line = gw.logger.lines.filter((each) => each.message === 'request').at(-1)?.fields;
  t.like(line, {
    requestId: 'lb-probe-7',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    operation: 'health',
    method: 'GET',
    path: '/health',
    status: 200,
  });
  t.regex(String(line?.client), /127\.0\.0\.1/);
  t.is(typeof line?.durationMs, 'number');
  const scrape = await (await fetch(gw.gateway.metricsUrl()!)).text();
  t.regex(scrape, /keygate_http_requests_total\{operation="health",status="200"\} 1\n/);
  t.regex(scrape, /keygate_health_probes_total\{outcome="ok"\} 1\n/);
  // Health probes are not audited (api-surface.md "Additions in 8.1.x"): the admin's audit query finds none.
  const admin = (await call(gw.url, 'POST', '/api/session', { body: { user: 'admin', password: PASSWORDS.admin } })).body
    .sessionId as string;
  const audit = await call(gw.url, 'GET', '/api/audit?limit=100', { headers: { Authorization: `Bearer ${admin}` } });
  t.is(audit.status, 200, audit.text);
  t.false(JSON.stringify(audit.body).includes('"health"'));
});

test('an unhealthy gateway answers the probe before Koa as the route does: /api/health 503 with Retry-After, /health 200 with ok false', async (t) => {
  const gw = await startFaultyGateway(t);
  gw.faults.unreachable = true;
  const down = await healthUntil(gw, false);
  t.is(down.status, 503);
  t.is(down.headers.get('retry-after'), '5');
  t.like(down.body, { ok: false, checks: { keyServer: 'unavailable' } });
  const routed = await gw.call('GET', '/api/health?via=koa');
  t.is(routed.status, 503);
  t.deepEqual(stableHeaders(down), stableHeaders(routed));
  const root = await gw.call('GET', '/health');
  t.is(root.status, 200);
  t.like(root.body, { ok: false });
});

test('what is not a plain probe goes the Koa way: HEAD, a body, an over-long body, a cross-origin probe', async (t) => {
  const gw = await countingGateway(t, { corsOrigins: [ALLOWED] });
  // CORS on, no Origin: answered before Koa, with the Vary the CORS step would add.
  const plain = await gw.get('/api/health');
  t.deepEqual(gw.reachedKoa, []);
  t.is(plain.headers.get('vary'), 'Origin');
  const cross = await gw.get('/api/health', { Origin: ALLOWED });
  t.is(cross.status, 200);
  t.is(cross.headers.get('access-control-allow-origin'), ALLOWED);
  t.deepEqual(gw.reachedKoa, ['GET /api/health']);
  const head = await call(gw.url, 'HEAD', '/health');
  t.is(head.status, 200);
  t.is(await getWithBody(`${gw.url}/health`, { 'content-type': 'application/json', 'content-length': '2' }, '{}'), 200);
  t.deepEqual(gw.reachedKoa.slice(1), ['HEAD /health', 'GET /health']);
  // A body over 1 MB is refused (400 on the seven operations' surface) on every route, the probe's included.
  t.is(await getWithBody(`${gw.url}/health`, { 'content-length': String(2 * 1024 * 1024) }), 400);
});

/** A GET carrying body framing (fetch sends none on GET): answers the status. */
function getWithBody(url: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const sent = request(url, { method: 'GET', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

test('a probe whose access line cannot be written is still answered, and the failure is logged, not thrown at the server', async (t) => {
  class FailingAccessLog extends MemoryLogger {
    override info(message: string, fields?: Record<string, unknown>): void {
      if (message === 'request') throw new Error('log destination gone');
      super.info(message, fields);
    }
  }
  const logger = new FailingAccessLog();
  const gateway = await createGateway({ keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin } }, { logger });
  t.teardown(() => gateway.close());
  const { url } = await gateway.listen(0, '127.0.0.1');
  const reply = await call(url, 'GET', '/health');
  t.is(reply.status, 200);
  t.like(reply.body, { ok: true });
  await new Promise((done) => setImmediate(done));
  t.like(logger.lines.find((line) => line.level === 'error')?.fields, { cause: 'Error: log destination gone' });
  // The gateway still answers: nothing was left unhandled.
  t.is((await call(url, 'GET', '/api/health')).status, 200);
});

test('a request URL named like an inherited member is not taken for a probe: a host that sets req.url to "constructor" gets the Koa 404', async (t) => {
  const gw = await countingGateway(t);
  const handler = gw.gateway.app.callback();
  // An embedding host may rewrite req.url to anything before it hands the request on.
  const host = createServer((req, res) => {
    req.url = 'constructor';
    handler(req, res);
  });
  await new Promise<void>((ready) => host.listen(0, '127.0.0.1', ready));
  t.teardown(() => new Promise<void>((closed) => host.close(() => closed())));
  const reply = await call(`http://127.0.0.1:${(host.address() as AddressInfo).port}`, 'GET', '/health');
  t.is(reply.status, 404);
  t.deepEqual(gw.reachedKoa, ['GET constructor']);
});

test('a probe that fails before its answer is written goes the Koa way, which answers it', async (t) => {
  // A unit of the probe's own path: a health use case that fails, and a stand-in for the Koa app.
  const failing = { report: () => Promise.reject(new Error('report failed')) } as unknown as HealthUseCases;
  const logger = new MemoryLogger();
  const reachedApp: string[] = [];
  const handler = withHealthProbes(
    { health: failing, logger, metrics: new NoMetrics(), corsOrigins: [], trustedProxies: [] },
    async (req, res) => {
      reachedApp.push(`${req.method} ${req.url}`);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'INTERNAL' }));
    },
  );
  const host = createServer((req, res) => void handler(req, res));
  await new Promise<void>((ready) => host.listen(0, '127.0.0.1', ready));
  t.teardown(() => new Promise<void>((closed) => host.close(() => closed())));
  const reply = await call(`http://127.0.0.1:${(host.address() as AddressInfo).port}`, 'GET', '/health');
  t.is(reply.status, 500);
  t.deepEqual(reply.body, { error: 'INTERNAL' });
  t.deepEqual(reachedApp, ['GET /health'], 'the app answered the probe, once');
  t.deepEqual(
    logger.lines.filter((line) => line.level === 'error'),
    [],
    'nothing was half-written, so there is nothing to log',
  );
});
