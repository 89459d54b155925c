import test from 'ava';
import type { Context } from 'koa';
import { MemoryLogger } from '../../../src/adapters/logger/memory-logger.js';
import { KeygateError } from '../../../src/domain/errors/index.js';
import { NoMetrics } from '../../../src/ports/metrics.port.js';
import { apiErrorMapper } from '../../../src/transports/koa/api/api.errors.js';
import { accessLog } from '../../../src/transports/koa/http/access-log.js';
import { clientKeyOf } from '../../../src/transports/koa/http/client-address.js';
import { shapeFailures } from '../../../src/transports/koa/http/error-handler.js';
import { openRequest } from '../../../src/transports/koa/http/open-response.js';
import type { GatewayState } from '../../../src/transports/koa/state.js';

type StepContext = Context & { state: GatewayState };

/** Just enough of a Koa context for one part of the request step. */
function context(headers: Record<string, string> = {}, remoteAddress = '127.0.0.1'): { ctx: StepContext; set: Map<string, string> } {
  const set = new Map<string, string>();
  const body: { status: number; body?: unknown } = { status: 404 };
  const ctx = {
    state: {},
    method: 'POST',
    path: '/api/keys',
    req: { headers, socket: { remoteAddress } },
    res: { setHeader: (name: string, value: string) => void set.set(name, value) },
    request: { ip: remoteAddress },
    set: (name: string, value: string) => void set.set(name, value),
    get status() {
      return body.status;
    },
    set status(value: number) {
      body.status = value;
    },
    get body() {
      return body.body;
    },
    set body(value: unknown) {
      body.body = value;
    },
  } as unknown as StepContext;
  return { ctx, set };
}

test('openRequest honours a well-formed X-Request-Id, echoes a valid traceparent and sets the headers of every response', (t) => {
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const { ctx, set } = context({ 'x-request-id': 'req-42', traceparent });
  openRequest('https://gw.example')(ctx);
  t.like(ctx.state, { requestId: 'req-42', traceId: '0af7651916cd43dd8448eb211c80319c', publicOrigin: 'https://gw.example' });
  t.deepEqual(Object.fromEntries(set), {
    'X-Request-Id': 'req-42',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    traceparent,
  });
  const fresh = context({ 'x-request-id': 'bad id!' });
  openRequest(undefined)(fresh.ctx);
  t.regex(fresh.ctx.state.requestId, /^[0-9a-f]{16}$/);
});

test('clientKeyOf takes X-Forwarded-For only from a trusted proxy, and groups an IPv6 client by its prefix', (t) => {
  const key = clientKeyOf(['127.0.0.2'], 48);
  t.is(key(context({ 'x-forwarded-for': '2001:db8:1:2::5' }, '127.0.0.1').ctx.req), '127.0.0.1');
  t.is(key(context({ 'x-forwarded-for': '2001:db8:1:2::5' }, '127.0.0.2').ctx.req), '2001:db8:1:0:0:0:0:0/48');
});

test('shapeFailures answers a refusal with its code, and a bug as INTERNAL with the request id, never its message', async (t) => {
  const logger = new MemoryLogger();
  const shaped = shapeFailures(() => apiErrorMapper, logger);
  const refused = context().ctx;
  refused.state.requestId = 'req-1';
  await shaped(refused, async () => {
    throw new KeygateError('BAD_REQUEST', 'keyLen: must be 16, 24 or 32');
  });
  t.is(refused.status, 400);
  t.like(refused.body, { code: 'BAD_REQUEST' });
  t.is(refused.state.errorCode, 'BAD_REQUEST');
  const bug = context().ctx;
  bug.state.requestId = 'req-2';
  await shaped(bug, async () => {
    throw new TypeError('secret-looking internals');
  });
  t.is(bug.status, 500);
  t.like(bug.body, { code: 'INTERNAL' });
  t.false(JSON.stringify(bug.body).includes('secret-looking'));
  t.regex(JSON.stringify(bug.body), /req-2/);
});

test('accessLog writes one line naming the audited operation, else the unaudited one, else none', (t) => {
  const logger = new MemoryLogger();
  const logAccess = accessLog(logger, new NoMetrics());
  const audited = context().ctx;
  Object.assign(audited.state, { requestId: 'a', audit: { draft: { operation: 'keys.create', principal: 'alice', sessionRef: 'ref1' } } });
  audited.status = 201;
  logAccess(audited, performance.now());
  const probe = context().ctx;
  Object.assign(probe.state, { requestId: 'b', unauditedOperation: 'health' });
  logAccess(probe, performance.now());
  const unknown = context().ctx;
  Object.assign(unknown.state, { requestId: 'c' });
  logAccess(unknown, performance.now());
  t.deepEqual(
    logger.lines.map((line) => [line.message, line.fields.operation, line.fields.status, line.fields.principal]),
    [
      ['request', 'keys.create', 201, 'alice'],
      ['request', 'health', 404, undefined],
      ['request', 'none', 404, undefined],
    ],
  );
});
