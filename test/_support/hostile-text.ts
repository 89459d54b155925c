import { connect } from 'node:net';
import type { ExecutionContext } from 'ava';
import { clientKeyPair } from './client-key.js';
import type { TestGateway } from './gateway.js';
import type { Reply } from './http.js';

/**
 * Hostile strings for the text rule (docs/spec.md §1.6). `forbidden`: the rule refuses it in every
 * field (`lines` fields, the PEMs, take the line feed). `raw`: how a URL carries it, where
 * `encodeURIComponent` cannot (a lone surrogate has no UTF-8 form: its CESU-8 bytes, which the server
 * decodes as U+FFFD, never as the surrogate).
 */
export interface Hostile {
  readonly what: string;
  readonly value: string;
  readonly forbidden: 'always' | 'but-in-lines' | 'never';
  readonly inUrl?: string;
}

export const HOSTILE: readonly Hostile[] = [
  { what: 'a lone high surrogate', value: 'ab\uD800', forbidden: 'always', inUrl: 'ab%ED%A0%80' },
  { what: 'a lone low surrogate', value: '\uDC00ab', forbidden: 'always', inUrl: '%ED%B0%80ab' },
  { what: 'a NUL', value: 'ab\u0000cd', forbidden: 'always' },
  { what: 'an escape sequence', value: 'ab\u001B[2J', forbidden: 'always' },
  { what: 'a line feed', value: 'ab\ncd', forbidden: 'but-in-lines' },
  { what: 'DEL', value: 'ab\u007F', forbidden: 'always' },
  { what: 'a non-BMP character (emoji)', value: 'key\u{1F511}\u{1F600}', forbidden: 'never' },
  { what: 'combining marks', value: 'Zoe\u0308\u0301\u0323', forbidden: 'never' },
  { what: 'a 64 KiB string', value: 'A'.repeat(64 * 1024), forbidden: 'never' },
];

/** Enough failed logins before the waits that the table's refused logins never slow it (docs/spec.md §10). */
export const UNTHROTTLED = { throttleNameFailures: 1_000_000, throttleAddressFailures: 1_000_000 };

/** Fields whose text may hold line breaks and tabs (docs/spec.md §1.6): the PEMs. */
const LINES_FIELDS = /^(pem|certificate)$/;

type Schema = Record<string, unknown>;
type In = 'body' | 'query' | 'path' | 'header';

/** One string field of one operation, as the served OpenAPI document declares it. */
export interface TextField {
  readonly operationId: string;
  readonly method: string;
  /** The document's path, parameters as `{name}`. */
  readonly path: string;
  readonly in: In;
  /** Dotted, `[]` for an array's item, `{*}` for a member of a free-form object (a JWK, a policy value). */
  readonly field: string;
  readonly maxLength?: number;
  readonly pattern?: string;
}

/**
 * Every string field of every operation, derived from the served OpenAPI document (its request bodies,
 * query, path and header parameters), so that a new field is in the table without anyone adding it.
 */
export async function textFields(gw: TestGateway): Promise<TextField[]> {
  const doc = (await gw.call('GET', '/api/openapi.json')).body;
  const resolve = (schema: Schema): Schema => {
    const ref = schema.$ref as string | undefined;
    return ref === undefined ? schema : resolve(doc.components.schemas[ref.replace('#/components/schemas/', '')]);
  };
  const fields: TextField[] = [];
  for (const [path, operations] of Object.entries<Record<string, Schema>>(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const at = { operationId: operation.operationId as string, method: method.toUpperCase(), path };
      for (const parameter of (operation.parameters ?? []) as Schema[]) {
        const resolved = parameter.$ref === undefined ? parameter : doc.components.parameters[(parameter.$ref as string).split('/').pop()!];
        if (resolved.name === 'DPoP') continue;
        const schema = resolve((resolved.schema ?? {}) as Schema);
        if (schema.type === 'string' && schema.enum === undefined) {
          fields.push({ ...at, in: resolved.in as In, field: resolved.name as string, ...limits(schema) });
        }
      }
      const body = (operation.requestBody as Schema | undefined)?.content as Record<string, { schema: Schema }> | undefined;
      if (body !== undefined)
        walk(
          resolve(body['application/json']!.schema),
          '',
          (field, schema) => fields.push({ ...at, in: 'body', field, ...limits(schema) }),
          resolve,
        );
    }
  }
  return uniqueFields(fields);
}

function limits(schema: Schema): { maxLength?: number; pattern?: string } {
  return {
    ...(typeof schema.maxLength === 'number' ? { maxLength: schema.maxLength } : {}),
    ...(typeof schema.pattern === 'string' ? { pattern: schema.pattern } : {}),
  };
}

function walk(schema: Schema, path: string, found: (field: string, schema: Schema) => void, resolve: (schema: Schema) => Schema): void {
  const s = resolve(schema);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const options = (s.anyOf ?? s.oneOf ?? []) as Schema[];
  if (types.includes('string') && s.enum === undefined && s.const === undefined) found(path, s);
  for (const option of options) walk(option, path, found, resolve);
  // A value of any shape (a policy value) takes a string too.
  if (s.type === undefined && options.length === 0 && s.$ref === undefined && path !== '') found(path, s);
  for (const [name, member] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
    walk(member, path === '' ? name : `${path}.${name}`, found, resolve);
  if (s.items !== undefined) walk(s.items as Schema, `${path}[]`, found, resolve);
  if (s.propertyNames !== undefined) found(`${path}{*}`, {});
}

function uniqueFields(fields: TextField[]): TextField[] {
  const seen = new Map<string, TextField>();
  for (const field of fields) seen.set(`${field.operationId} ${field.in} ${field.field}`, field);
  return [...seen.values()];
}

/** How an operation is called when its fields are fine: the base each hostile value replaces one field of. */
export interface BaseRequest {
  readonly params?: Record<string, string>;
  readonly query?: Record<string, string>;
  readonly body?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  /** Where an operation takes one of several bodies (a single request or `{ items }`): each, the field going to the one that has its first step. */
  readonly bodies?: readonly Record<string, unknown>[];
}

/** What the table needs of the gateway: sessions and objects the bases name. */
export interface TableContext {
  readonly adminBearer: string;
  /** A key the admin owns: standard base64, and as a path segment. */
  readonly ttag: string;
  readonly ttagPath: string;
  readonly clientPubKey: string;
  /** A fresh name per call (principals created by a base). */
  fresh(): string;
}

const PEM = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
const JWK = { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' };
/** A trusted issuer's settings (docs/spec.md §4.24 item 1), every string field present. */
const ISSUER = {
  issuer: 'https://issuer.example',
  jwksUri: 'https://issuer.example/jwks',
  jwks: undefined,
  audiences: ['keygate'],
  algorithms: ['ES256'],
  principal: 'ci-{sub}',
  roles: ['service'],
  boundClaims: { repository: 'octo/app' },
};

/**
 * The base request of every operation that takes a string, by operation id. An operation the document
 * lists with a string field and no base here fails the table: a new field cannot be missed.
 */
export function baseRequests(c: TableContext): Record<string, () => BaseRequest> {
  const single = (extra: Record<string, unknown>) => ({ ttag: c.ttag, ...extra });
  const batch = (extra: Record<string, unknown>) => ({ items: [{ ttag: c.ttag, ...extra }] });
  const crypto = (extra: Record<string, unknown>) => () => ({ body: single(extra), bodies: [single(extra), batch(extra)] });
  const keyPath = { ttag: c.ttagPath };
  return {
    'session.password': () => ({ body: { user: 'carol', password: 'carol-password-3' } }),
    'session.certificate.challenge': () => ({ body: { certificate: PEM } }),
    'session.certificate': () => ({ body: { challengeId: 'abc', signature: 'abc' } }),
    'session.jwt': () => ({ body: { issuer: 'ci', token: 'a.b.c' } }),
    'session.scoped': () => ({ body: { objects: [c.ttag], senderKey: JWK } }),
    'session.delegated': () => ({ body: { principal: 'alice' }, bodies: [{ principal: 'alice' }, { certificate: PEM }] }),
    'crypto.encrypt': crypto({ plaintext: 'AAAA' }),
    'crypto.decrypt': crypto({ ciphertext: 'AAAA', iv: 'AAAAAAAAAAAAAAAA', authTag: 'AAAAAAAAAAAAAAAAAAAAAA==' }),
    'crypto.rewrap': crypto({ ciphertext: 'AAAA', iv: 'AAAAAAAAAAAAAAAA', authTag: 'AAAAAAAAAAAAAAAAAAAAAA==' }),
    'crypto.mac': crypto({ data: 'AAAA' }),
    'crypto.mac.verify': crypto({ data: 'AAAA', mac: 'AAAA' }),
    'crypto.datakey': crypto({ clientPubKey: c.clientPubKey }),
    'crypto.datakey.open': crypto({ blob: 'AAAA', clientPubKey: c.clientPubKey }),
    'crypto.sign': crypto({ alg: 'ES256', message: 'AAAA' }),
    'crypto.sign.verify': crypto({ alg: 'ES256', message: 'AAAA', signature: 'AAAA', kid: 'abc' }),
    'crypto.sign-jwt': () => ({ body: { ttag: c.ttag, claims: { sub: 'carol' }, header: { cty: 'text' } } }),
    'keys.create': () => ({ body: {} }),
    'keys.read': () => ({ params: keyPath }),
    'keys.versions': () => ({ params: keyPath }),
    'keys.public-key': () => ({ params: keyPath, query: {} }),
    'keys.jwks': () => ({ params: keyPath }),
    'keys.export': () => ({ params: keyPath, body: { clientPubKey: c.clientPubKey } }),
    'keys.rotate': () => ({ params: keyPath }),
    'keys.min-version': () => ({ params: keyPath, body: { minVersion: 1 } }),
    'keys.publish': () => ({ params: keyPath, body: { published: true } }),
    'keys.expire': () => ({ params: keyPath }),
    'keys.disable': () => ({ params: keyPath }),
    'keys.enable': () => ({ params: keyPath }),
    'keys.list': () => ({ query: { q: 'app' } }),
    'keys.tag': () => ({ params: { ...keyPath, name: 'env' }, body: { value: 'prod' } }),
    'keys.untag': () => ({ params: { ...keyPath, name: 'env' } }),
    'keys.schedule-deletion': () => ({ params: keyPath }),
    'keys.cancel-deletion': () => ({ params: keyPath }),
    'acl.read': () => ({ params: keyPath }),
    'acl.put': () => ({ params: { ...keyPath, principal: 'bob' }, body: { rights: ['read'] } }),
    'acl.delete': () => ({ params: { ...keyPath, principal: 'bob' } }),
    'acl.access': () => ({ params: keyPath }),
    'aliases.list': () => ({ query: {} }),
    'aliases.put': () => ({ params: { alias: 'text-alias' }, body: { ttag: c.ttag } }),
    'aliases.delete': () => ({ params: { alias: 'nothing' } }),
    'principals.list': () => ({ query: {} }),
    'principals.create': () => ({ body: { name: c.fresh(), kind: 'user' } }),
    'principals.read': () => ({ params: { name: 'carol' } }),
    'principals.update': () => ({ params: { name: 'carol' }, body: { displayName: 'Carol' } }),
    'principals.delete': () => ({ params: { name: 'nobody' } }),
    'principals.password': () => ({ params: { name: 'carol' }, body: { password: 'carol-password-3' } }),
    'principals.groups': () => ({ params: { name: 'carol' } }),
    'principals.senderKey.put': () => ({ params: { name: 'carol' }, body: { jwk: JWK } }),
    'groups.list': () => ({ query: {} }),
    'groups.members.list': () => ({ params: { name: 'ops' } }),
    'groups.members.add': () => ({ params: { name: 'ops', member: 'carol' } }),
    'groups.members.remove': () => ({ params: { name: 'ops', member: 'nobody' } }),
    'roles.read': () => ({ params: { role: 'user' } }),
    'roles.put': () => ({ params: { role: 'text-role' }, body: { operations: ['keys.read'] } }),
    'certificates.list': () => ({ query: {} }),
    'certificates.read': () => ({ params: { id: '0'.repeat(64) } }),
    'certificates.parse': () => ({ body: { pem: PEM } }),
    'certificates.verify': () => ({ body: { pem: PEM } }),
    'trust.authorities.add': () => ({ body: { pem: PEM } }),
    'trust.authorities.delete': () => ({ params: { id: '0'.repeat(64) } }),
    'trust.enrollments.add': () => ({ body: { principal: 'carol', pem: PEM } }),
    'trust.issuers.read': () => ({ params: { name: 'nobody' } }),
    'trust.issuers.put': () => ({ params: { name: 'text-issuer' }, body: ISSUER }),
    'trust.issuers.delete': () => ({ params: { name: 'nobody' } }),
    'server.parameters.put': () => ({ params: { name: 'tokenTtlSeconds' }, body: { value: 3600 } }),
    'policy.provisioning.write': () => ({ params: { parameter: 'defaultRoles' }, body: { value: ['user'] } }),
    'audit.query': () => ({ query: {} }),
    'audit.verify': () => ({ query: {} }),
    'audit.get': () => ({ params: { id: '0'.repeat(32) } }),
    'root.login': () => ({ body: { user: 'carol', password: 'carol-password-3' } }),
    'root.keys.export': () => ({ body: { ttag: c.ttag, clientPubKey: c.clientPubKey } }),
    'root.keys.grant': () => ({ body: { ttag: c.ttag, grantee: 'bob' } }),
    'root.keys.revoke': () => ({ body: { ttag: c.ttag, grantee: 'nobody' } }),
  };
}

/** The name a refusal's detail gives the field: `items.0.ttag`, `objects.0`, `jwk.crv`. */
export function detailName(field: TextField): string {
  return field.field.replace(/\[\]/g, '.0').replace(/\{\*\}/g, '.crv');
}

/** `value` put in place of the field, in a copy of `base`. */
function withValue(base: Record<string, unknown>, field: string, value: string): Record<string, unknown> {
  const copy = structuredClone(base);
  const steps = field
    .replace(/\[\]/g, '.[]')
    .replace(/\{\*\}/g, '.{*}')
    .split('.')
    .map((step) => (step === '[]' ? 0 : step === '{*}' ? 'crv' : step));
  let holder: Record<string | number, unknown> = copy;
  for (const [index, step] of steps.entries()) {
    if (index === steps.length - 1) {
      holder[step] = value;
      break;
    }
    const next = steps[index + 1];
    holder[step] ??= typeof next === 'number' ? [{}] : {};
    holder = holder[step] as Record<string | number, unknown>;
  }
  return copy;
}

/** Which base of an operation a field belongs to: one that has its first step, else the first. */
function baseFor(request: BaseRequest, field: string): Record<string, unknown> {
  const first = field.split(/[.[{]/)[0]!;
  return request.bodies?.find((body) => first in body) ?? request.body ?? {};
}

/** One hostile value sent in one field: the request as sent, and whether the value could travel at all. */
export async function sendHostile(
  gw: TestGateway,
  c: TableContext,
  field: TextField,
  base: BaseRequest,
  hostile: Hostile,
): Promise<Reply | undefined> {
  const isRoot = !field.path.startsWith('/api');
  const auth: Record<string, string> =
    field.operationId === 'root.login' ? {} : isRoot ? { 'X-Session': c.adminBearer } : { Authorization: `Bearer ${c.adminBearer}` };
  const inUrl = (value: string) => hostile.inUrl ?? encodeURIComponent(value);
  const params = { ...base.params };
  const query = Object.entries(base.query ?? {}).map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
  let body = base.body;
  const headers: Record<string, string> = { ...auth, ...base.headers };
  if (field.in === 'body') body = withValue(baseFor(base, field.field), field.field, hostile.value);
  if (field.in === 'query') query.push(`${field.field}=${inUrl(hostile.value)}`);
  let path = field.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === field.field && field.in === 'path' ? inUrl(hostile.value) : encodeURIComponent(params[name] ?? 'x'),
  );
  if (query.length > 0) path += `?${query.join('&')}`;
  if (field.in === 'header') {
    // A header line carries bytes: no line break (that would be another header), nothing above U+00FF.
    // fetch refuses to send a control, so the request is written on a socket as it is.
    if ([...hostile.value].some((character) => character === '\r' || character === '\n' || character.codePointAt(0)! > 0xff))
      return undefined;
    return rawCall(gw.url, field.method, path, { ...headers, [field.field]: hostile.value }, body);
  }
  return gw.call(field.method, path, body === undefined ? { headers } : { headers, body });
}

/** Answers the field must be refused with: the rule, its length limit or its pattern. */
export function mustRefuse(field: TextField, hostile: Hostile): boolean {
  if (hostile.forbidden === 'always') return hostile.inUrl === undefined || field.in === 'body';
  if (hostile.forbidden === 'but-in-lines' && !LINES_FIELDS.test(field.field)) return true;
  if (field.in === 'path' || field.in === 'header') return false;
  // 64 KiB does not fit in a URL: Node answers 431 before any route; only a body's limit is the field's.
  if (field.in === 'body' && field.maxLength !== undefined && hostile.value.length > field.maxLength) return true;
  if (field.in === 'query' && hostile.value.length > 8192) return false;
  return field.pattern !== undefined && !new RegExp(field.pattern, 'u').test(hostile.value);
}

/**
 * What is wrong with a refusal, or undefined: a 400 naming the field, `{ code: 'BAD_REQUEST', detail:
 * '<field>: ...' }` on /api, `{ error: '<field>: ...' }` at the root. A header holding a control is
 * refused by the HTTP parser before any route (`malformed HTTP request`).
 */
export function refusalFault(reply: Reply, field: TextField): string | undefined {
  const name = field.in === 'body' ? detailName(field) : field.field;
  if (reply.status !== 400) return `answered ${reply.status}, not 400: ${reply.text.slice(0, 200)}`;
  const said: unknown = field.path.startsWith('/api')
    ? reply.body?.code === 'BAD_REQUEST'
      ? reply.body.detail
      : undefined
    : reply.body?.error;
  if (field.in === 'header' && said === 'malformed HTTP request') return undefined;
  return typeof said === 'string' && said.startsWith(`${name}: `)
    ? undefined
    : `the refusal does not name ${name}: ${reply.text.slice(0, 200)}`;
}

/** A fresh P-256 public key, as an export's `clientPubKey`. */
export function exportKey(): string {
  return clientKeyPair().publicKey;
}

/** Reads back what a 2xx stored, where the field is one a reader sees again: exactly the text sent. */
async function readBackFault(gw: TestGateway, c: TableContext, field: TextField, sent: Reply, value: string): Promise<string | undefined> {
  const get = async (path: string) => (await gw.call('GET', path, { headers: { Authorization: `Bearer ${c.adminBearer}` } })).body;
  const key = `${field.operationId} ${field.field}`;
  let read: unknown[] = [];
  if (key === 'keys.create label')
    read = [sent.body.label, (await get(`/api/keys/${Buffer.from(sent.body.ttag, 'base64').toString('base64url')}`)).label];
  if (key === 'principals.create displayName')
    read = [sent.body.displayName, (await get(`/api/principals/${encodeURIComponent(sent.body.name)}`)).displayName];
  if (key === 'principals.update displayName') read = [sent.body.displayName, (await get('/api/principals/carol')).displayName];
  return read.every((text) => text === value)
    ? undefined
    : `stored, but read back otherwise (${read.map((text) => String(text).length).join(', ')} characters)`;
}

/** Fields whose accepted text is stored and read back (assertReadBack); the table checks each was stored at least once. */
export const READ_BACK = ['keys.create label', 'principals.create displayName', 'principals.update displayName'] as const;

/**
 * Sends every hostile string in every string field of every operation, one request at a time: each is
 * refused with 400 naming the field where the rule, the field's limit or its pattern refuses it, is
 * otherwise answered below 500, and what it stored reads back exactly.
 */
export async function runHostileTable(
  t: ExecutionContext,
  gw: TestGateway,
  c: TableContext,
): Promise<{ sent: number; stored: Set<string>; faults: string[] }> {
  const fields = await textFields(gw);
  const bases = baseRequests(c);
  const operations = [...new Set(fields.map((field) => field.operationId))];
  t.deepEqual(
    operations.filter((id) => bases[id] === undefined),
    [],
    'every operation with a string field has a base request here',
  );
  t.true(
    fields.some((field) => field.in === 'path') &&
      fields.some((field) => field.in === 'query') &&
      fields.some((field) => field.in === 'header'),
  );
  let sent = 0;
  const stored = new Set<string>();
  const faults: string[] = [];
  for (const field of fields) {
    const base = bases[field.operationId]?.();
    if (base === undefined) continue;
    for (const hostile of HOSTILE) {
      const label = `${field.method} ${field.path} ${field.in} ${field.field} <- ${hostile.what}`;
      const reply = await sendHostile(gw, c, field, base, hostile).catch((error: Error) => {
        throw new Error(`${label}: ${error.message} ${(error.cause as Error | undefined)?.message}`);
      });
      if (reply === undefined) continue;
      sent += 1;
      let fault: string | undefined;
      if (reply.status >= 500) fault = `answered ${reply.status}: ${reply.text.slice(0, 200)}`;
      else if (mustRefuse(field, hostile)) fault = refusalFault(reply, field);
      else if (reply.status >= 200 && reply.status < 300) {
        fault = await readBackFault(gw, c, field, reply, hostile.value);
        stored.add(`${field.operationId} ${field.field}`);
      }
      if (fault !== undefined) faults.push(`${label}: ${fault}`);
    }
  }
  return { sent, stored, faults };
}

/** One request written on a socket byte for byte (Latin-1 headers), its answer read whole (Connection: close). */
function rawCall(base: string, method: string, path: string, headers: Record<string, string>, body: unknown): Promise<Reply> {
  const { hostname, port } = new URL(base);
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
  const head = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close', `Content-Length: ${payload.length}`];
  if (body !== undefined) head.push('Content-Type: application/json');
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), payload])),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      resolve({ status, headers: new Headers(), body: parsed, text });
    });
  });
}
