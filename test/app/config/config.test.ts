import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { GatewayConfig } from '../../../src/app/config/config.js';
import { configFromEnv } from '../../../src/app/config/from-env.js';
import { ConfigError } from '../../../src/keyserver/config-error.js';
import { createIdentityCertificate } from '../../../src/keyserver/identity/identity-certificate.js';
import { scratchDir } from '../../_support/scratch-dirs.js';

const dir = scratchDir('keygate-config-');

function embedded(config: GatewayConfig) {
  if (config.keyServer.kind !== 'embedded') throw new Error(`expected the embedded key server, got ${config.keyServer.kind}`);
  return config.keyServer;
}

function tls(config: GatewayConfig) {
  if (config.keyServer.kind !== 'tls') throw new Error(`expected the tls key server, got ${config.keyServer.kind}`);
  return config.keyServer;
}

test('defaults: 127.0.0.1:8080, embedded key server, tokens that never expire', (t) => {
  const config = configFromEnv({});
  t.is(config.host, '127.0.0.1');
  t.is(config.port, 8080);
  t.is(embedded(config).tokenTtlSeconds, undefined);
});

test('reads the TE_* variables and the seed file', (t) => {
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify({ principals: [{ name: 'alice', kind: 'user', password: 'pw', roles: ['user'] }] }));
  const config = configFromEnv({
    TE_GATEWAY_PORT: '9000',
    TE_GATEWAY_HOST: '0.0.0.0',
    TE_KEYSERVER_SEED: seed,
    TE_KEYSERVER_TOKEN_TTL_SECONDS: '30',
    TE_KEYSERVER_ADMIN_PASSWORD: 'secret',
  });
  t.is(config.port, 9000);
  t.is(config.host, '0.0.0.0');
  t.is(embedded(config).tokenTtlSeconds, 30);
  t.is(embedded(config).adminPassword, 'secret');
  t.is(embedded(config).seed?.principals[0]?.name, 'alice');
});

const PIN = `${'AB:'.repeat(31)}AB`;
const URL_ENV = { TE_GATEWAY_KEYSERVER_URL: 'https://ks.example:8443' };

test('a key-server URL with a pinned fingerprint selects the tls key server, pin normalised', (t) => {
  const config = tls(configFromEnv({ ...URL_ENV, TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN, TE_KEYSERVER_SEED: join(dir, 'none.json') }));
  t.is(config.url, 'https://ks.example:8443');
  t.is(config.fingerprint, 'ab'.repeat(32));
  t.is(config.ca, undefined);
  t.is(config.timeoutMs, 5_000);
  t.true(config.resumeSessions);
});

test('a key-server URL with a CA file reads the PEM, and the timeout is configurable', async (t) => {
  const ca = join(dir, 'ca.pem');
  writeFileSync(ca, (await createIdentityCertificate()).certPem);
  const config = tls(configFromEnv({ ...URL_ENV, TE_GATEWAY_KEYSERVER_CA: ca, TE_GATEWAY_KEYSERVER_TIMEOUT_MS: '750' }));
  t.regex(config.ca!, /BEGIN CERTIFICATE/);
  t.is(config.fingerprint, undefined);
  t.is(config.timeoutMs, 750);
});

const KEY_1 = Buffer.alloc(32, 1).toString('base64');
const KEY_2 = Buffer.alloc(32, 2).toString('base64');
const REDIS_ENV = { TE_GATEWAY_REDIS_URL: 'redis://:hunter2@127.0.0.1:6380/2', TE_GATEWAY_SESSION_KEY: KEY_1 };

test('sessions live in memory unless TE_GATEWAY_REDIS_URL is set', (t) => {
  t.deepEqual(configFromEnv({}).sessionStore, { kind: 'memory' });
});

test('a Redis URL and session keys select the Redis store: the first key seals, all open', (t) => {
  const config = configFromEnv({ ...REDIS_ENV, TE_GATEWAY_SESSION_KEY: ` ${KEY_2} , ${KEY_1}`, TE_GATEWAY_REDIS_TIMEOUT_MS: '250' });
  t.deepEqual(config.sessionStore, {
    kind: 'redis',
    url: REDIS_ENV.TE_GATEWAY_REDIS_URL,
    sessionKeys: [KEY_2, KEY_1],
    timeoutMs: 250,
    keyPrefix: 'keygate:',
  });
  t.like(configFromEnv(REDIS_ENV).sessionStore, { timeoutMs: 1_000 });
});

test('an error about Redis settings shows neither the URL password nor a key', (t) => {
  for (const env of [
    { ...REDIS_ENV, TE_GATEWAY_REDIS_URL: 'http://:hunter2@cache:6379' },
    { ...REDIS_ENV, TE_GATEWAY_SESSION_KEY: `${KEY_1},${KEY_1.slice(0, 20)}` },
  ]) {
    const error = t.throws(() => configFromEnv(env), { instanceOf: ConfigError });
    t.false(error!.message.includes('hunter2'));
    t.false(error!.message.includes(KEY_1.slice(0, 20)));
  }
});

const bad: [string, Record<string, string>, RegExp][] = [
  ['a key-server URL without a CA or a fingerprint', URL_ENV, /^TE_GATEWAY_KEYSERVER_CA or TE_GATEWAY_KEYSERVER_FINGERPRINT:/],
  [
    'a key-server URL with both a CA and a fingerprint',
    { ...URL_ENV, TE_GATEWAY_KEYSERVER_CA: '/x', TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN },
    /^TE_GATEWAY_KEYSERVER_FINGERPRINT:/,
  ],
  [
    'a key-server URL that is not https',
    { TE_GATEWAY_KEYSERVER_URL: 'http://ks:8443', TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN },
    /^TE_GATEWAY_KEYSERVER_URL:/,
  ],
  [
    'a key-server URL with a path',
    { TE_GATEWAY_KEYSERVER_URL: 'https://ks:8443/v1', TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN },
    /^TE_GATEWAY_KEYSERVER_URL:/,
  ],
  ['a fingerprint that is not SHA-256 hex', { ...URL_ENV, TE_GATEWAY_KEYSERVER_FINGERPRINT: 'abcd' }, /^TE_GATEWAY_KEYSERVER_FINGERPRINT:/],
  ['a CA file that does not exist', { ...URL_ENV, TE_GATEWAY_KEYSERVER_CA: join(dir, 'none.pem') }, /^TE_GATEWAY_KEYSERVER_CA:.*ENOENT/],
  [
    'a CA file that holds no certificate',
    { ...URL_ENV, TE_GATEWAY_KEYSERVER_CA: new URL(import.meta.url).pathname },
    /^TE_GATEWAY_KEYSERVER_CA:.*no PEM/,
  ],
  [
    'a zero key-server timeout',
    { ...URL_ENV, TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN, TE_GATEWAY_KEYSERVER_TIMEOUT_MS: '0' },
    /^TE_GATEWAY_KEYSERVER_TIMEOUT_MS:/,
  ],
  [
    'a key-server fingerprint without a URL',
    { TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN },
    /^TE_GATEWAY_KEYSERVER_FINGERPRINT:.*TE_GATEWAY_KEYSERVER_URL/,
  ],
  ['a port that is not a number', { TE_GATEWAY_PORT: 'http' }, /^TE_GATEWAY_PORT:/],
  ['a port out of range', { TE_GATEWAY_PORT: '70000' }, /^TE_GATEWAY_PORT:/],
  ['a zero token lifetime', { TE_KEYSERVER_TOKEN_TTL_SECONDS: '0' }, /^TE_KEYSERVER_TOKEN_TTL_SECONDS:/],
  ['a missing seed file', { TE_KEYSERVER_SEED: join(dir, 'none.json') }, /^TE_KEYSERVER_SEED:/],
  ['an unknown log level', { TE_GATEWAY_LOG_LEVEL: 'loud' }, /^TE_GATEWAY_LOG_LEVEL:/],
  [
    'a Redis URL without a session key',
    { TE_GATEWAY_REDIS_URL: 'redis://127.0.0.1:6379' },
    /^TE_GATEWAY_SESSION_KEY: required with TE_GATEWAY_REDIS_URL/,
  ],
  [
    'a session key of 16 bytes',
    { ...REDIS_ENV, TE_GATEWAY_SESSION_KEY: Buffer.alloc(16, 1).toString('base64') },
    /^TE_GATEWAY_SESSION_KEY: key 1 of 1 is not base64 of 32 bytes/,
  ],
  [
    'a session key that is not base64',
    { ...REDIS_ENV, TE_GATEWAY_SESSION_KEY: `${KEY_1},${'!'.repeat(44)}` },
    /^TE_GATEWAY_SESSION_KEY: key 2 of 2/,
  ],
  [
    'a session key listed twice',
    { ...REDIS_ENV, TE_GATEWAY_SESSION_KEY: `${KEY_1},${KEY_1}` },
    /^TE_GATEWAY_SESSION_KEY: a key is listed twice/,
  ],
  ['a session key without Redis', { TE_GATEWAY_SESSION_KEY: KEY_1 }, /^TE_GATEWAY_SESSION_KEY: applies only with TE_GATEWAY_REDIS_URL/],
  [
    'a Redis URL that is not redis://',
    { ...REDIS_ENV, TE_GATEWAY_REDIS_URL: 'http://:hunter2@cache:6379' },
    /^TE_GATEWAY_REDIS_URL: expected redis:\/\//,
  ],
  ['a zero Redis timeout', { ...REDIS_ENV, TE_GATEWAY_REDIS_TIMEOUT_MS: '0' }, /^TE_GATEWAY_REDIS_TIMEOUT_MS:/],
];
for (const [name, env, message] of bad) {
  test(`refuses ${name} with a line naming the variable`, (t) => {
    const error = t.throws(() => configFromEnv(env), { instanceOf: ConfigError });
    t.regex(error!.message, message);
    t.false(error!.message.includes('\n'));
  });
}

test('refuses a seed file that is not JSON or not the seed shape', (t) => {
  const notJson = join(dir, 'bad.json');
  writeFileSync(notJson, '{');
  t.throws(() => configFromEnv({ TE_KEYSERVER_SEED: notJson }), { message: /^TE_KEYSERVER_SEED:.*not valid JSON/ });
  const wrongShape = join(dir, 'shape.json');
  writeFileSync(wrongShape, JSON.stringify({ principals: [{ name: 'x', kind: 'robot' }] }));
  t.throws(() => configFromEnv({ TE_KEYSERVER_SEED: wrongShape }), { message: /^TE_KEYSERVER_SEED:.*kind/ });
});

test('the CLI stops with one line and a non-zero exit on a bad value, and prints --help', (t) => {
  const bin = new URL('../../_support/keygate-from-source.js', import.meta.url).pathname;
  const failed = spawnSync(process.execPath, [bin, 'serve'], { env: { ...process.env, TE_GATEWAY_PORT: 'nope' }, encoding: 'utf8' });
  t.is(failed.status, 2);
  t.is(failed.stderr.trim().split('\n').length, 1);
  t.regex(failed.stderr, /TE_GATEWAY_PORT/);
  const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  t.is(help.status, 0);
  t.regex(help.stdout, /Usage: keygate/);
  const unknown = spawnSync(process.execPath, [bin, 'frobnicate'], { encoding: 'utf8' });
  t.is(unknown.status, 2);
});

test('the CLI refuses to boot with Redis and no session key, in one line naming TE_GATEWAY_SESSION_KEY', (t) => {
  const bin = new URL('../../_support/keygate-from-source.js', import.meta.url).pathname;
  const env = { ...process.env, TE_GATEWAY_REDIS_URL: 'redis://127.0.0.1:1', TE_GATEWAY_SESSION_KEY: '', TE_GATEWAY_PORT: '0' };
  const failed = spawnSync(process.execPath, [bin, 'serve'], { env, encoding: 'utf8', timeout: 30_000 });
  t.is(failed.status, 2);
  t.is(failed.stderr.trim().split('\n').length, 1);
  t.regex(failed.stderr, /^keygate: TE_GATEWAY_SESSION_KEY: required with TE_GATEWAY_REDIS_URL/);
});
