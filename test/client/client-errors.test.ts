import test from 'ava';
import { apiErrorFrom, KeygateApiError, ReauthRequiredError, UNEXPECTED_RESPONSE } from '../../src/client/client-errors.js';

test('a 401 with reauth is a ReauthRequiredError, which is a KeygateApiError', (t) => {
  const error = apiErrorFrom(
    401,
    { code: 'SESSION_EXPIRED', detail: 'sign in again', reauth: true },
    new Headers({ 'X-Request-Id': 'abc123' }),
  );
  t.true(error instanceof ReauthRequiredError);
  t.true(error instanceof KeygateApiError);
  t.true(error instanceof Error);
  t.like(error, {
    name: 'ReauthRequiredError',
    status: 401,
    code: 'SESSION_EXPIRED',
    detail: 'sign in again',
    reauth: true,
    requestId: 'abc123',
  });
});

test('a 401 without reauth, or with reauth false, is an ordinary KeygateApiError', (t) => {
  for (const body of [
    { code: 'SESSION_UNKNOWN', detail: 'no such session' },
    { code: 'PROOF_REPLAYED', detail: 'jti seen', reauth: false },
  ]) {
    const error = apiErrorFrom(401, body, new Headers());
    t.false(error instanceof ReauthRequiredError, body.code);
    t.is(error.name, 'KeygateApiError');
    t.is(error.code, body.code);
    t.is(error.message, `${body.code}: ${body.detail}`);
  }
});

test('reauth outside a 401 does not make a ReauthRequiredError', (t) => {
  t.false(apiErrorFrom(403, { code: 'ACL_DENIED', detail: 'no', reauth: true }, new Headers()) instanceof ReauthRequiredError);
});

test('retryable, reason, scope and Retry-After are carried over', (t) => {
  const body = { code: 'KEY_SERVER_UNAVAILABLE', detail: 'down', retryable: true, scope: 'process', reason: 'connect' };
  const error = apiErrorFrom(503, body, new Headers({ 'Retry-After': '7' }));
  t.like(error, {
    status: 503,
    code: 'KEY_SERVER_UNAVAILABLE',
    retryable: true,
    scope: 'process',
    reason: 'connect',
    retryAfterSeconds: 7,
  });
  t.is(apiErrorFrom(503, body, new Headers({ 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' })).retryAfterSeconds, undefined);
});

test('fields the body does not have are absent, not undefined members that look set', (t) => {
  const error = apiErrorFrom(404, { code: 'NOT_FOUND', detail: 'no route' }, new Headers());
  for (const field of ['retryable', 'reauth', 'reason', 'scope', 'retryAfterSeconds', 'requestId']) t.false(field in error, field);
});

test('a body that is not the /api error body is UNEXPECTED_RESPONSE with the status', (t) => {
  for (const body of [undefined, 'gateway timeout', { error: 'no route GET /x' }, { code: 7, detail: 'x' }, null]) {
    const error = apiErrorFrom(502, body, new Headers());
    t.is(error.code, UNEXPECTED_RESPONSE);
    t.is(error.status, 502);
    t.regex(error.detail, /HTTP 502/);
  }
});
