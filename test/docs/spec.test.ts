import { readFileSync } from 'node:fs';
import test from 'ava';
import { ERROR_CODES, type ErrorCode } from '../../src/domain/errors/error-codes.js';
import { KeygateError } from '../../src/domain/errors/keygate-error.js';
import { API_ERROR_STATUS } from '../../src/transports/koa/api/api.errors.js';
import { apiRouteTable } from '../../src/transports/koa/api/api.router.js';
import { openApiDocument } from '../../src/transports/koa/app.js';
import { rootErrorResponse } from '../../src/transports/koa/root/root.errors.js';
import type { GatewayServices } from '../../src/use-cases/index.js';

const spec = readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8');
const services = {} as GatewayServices;

/** Every code of both surfaces' complete status maps (each is a `Record<ErrorCode, ...>`). */
const codes = [...new Set<ErrorCode>([...ERROR_CODES, ...(Object.keys(API_ERROR_STATUS) as ErrorCode[])])];

/** The cells of the row of the codes table (docs/spec.md §6.3) that names `code`, or undefined. */
function codeRow(code: string): string[] | undefined {
  const line = spec.split('\n').find((row) => row.startsWith(`| \`${code}\` |`));
  return line
    ?.split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

/** `GET /api/keys/{ttag}` as the spec writes an operation, from a Koa path (`:ttag`) or an OpenAPI one. */
function operation(method: string, path: string): string {
  return `${method.toUpperCase()} \`${path.replace(/:(\w+)/g, '{$1}')}\``;
}

test('every error code of the status maps has its row in the codes table', (t) => {
  const missing = codes.filter((code) => codeRow(code) === undefined);
  t.deepEqual(missing, []);
});

test('the codes table states each code’s status on /api as the /api map does', (t) => {
  for (const code of codes) t.is(codeRow(code)?.[1], String(API_ERROR_STATUS[code]), code);
});

test('the codes table states each code’s status on the root surface (outside login) as the root map does', (t) => {
  for (const code of codes) {
    const { status } = rootErrorResponse(new KeygateError(code, 'detail'), 'export');
    t.is(codeRow(code)?.[2], String(status), code);
  }
});

test('the codes table names no code the gateway does not have', (t) => {
  const rows = spec.split('\n').filter((row) => /^\| `[A-Z_]+` \|/.test(row));
  const named = rows.map((row) => /^\| `([A-Z_]+)` \|/.exec(row)![1]!);
  t.true(named.length >= codes.length);
  t.deepEqual(
    named.filter((code) => !codes.includes(code as ErrorCode)),
    [],
  );
});

test('every operation of the /api route table appears with its method and path', (t) => {
  const routes = apiRouteTable(services);
  t.true(routes.length > 0);
  const missing = routes.map((route) => operation(route.method, route.path)).filter((op) => !spec.includes(op));
  t.deepEqual(missing, []);
});

test('every operation of the OpenAPI document, root surface included, appears with its method and path', (t) => {
  const paths = openApiDocument(services, '0.0.0').paths as Record<string, Record<string, unknown>>;
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['get', 'post', 'put', 'delete'].includes(method))
      .map((method) => operation(method, path)),
  );
  t.true(operations.some((op) => op === 'POST `/login`'));
  t.deepEqual(
    operations.filter((op) => !spec.includes(op)),
    [],
  );
});

test('every /api operation the spec names is one the gateway serves', (t) => {
  const served = new Set(apiRouteTable(services).map((route) => operation(route.method, route.path)));
  served.add(operation('GET', '/api/openapi.json'));
  const named = [...spec.matchAll(/\b(GET|POST|PUT|DELETE) `(\/api[^`]*)`/g)].map(([, method, path]) => operation(method!, path!));
  t.true(named.length > 0);
  t.deepEqual(
    named.filter((op) => !served.has(op)),
    [],
  );
});
