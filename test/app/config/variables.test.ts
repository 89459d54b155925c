import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { CONFIG_DEFAULTS, gatewayConfigSchema } from '../../../src/app/config/config.js';
import { configFromEnv } from '../../../src/app/config/from-env.js';
import { editDistance, nearestVariable, unknownVariableWarnings } from '../../../src/app/config/unknown-variables.js';
import { CONFIG_VARIABLES, type ConfigVariable, type VariableName } from '../../../src/app/config/variables.js';
import { createAuthority } from '../../_support/certificates.js';

const BIN = new URL('../../_support/keygate-from-source.js', import.meta.url).pathname;
const VARIABLES: readonly ConfigVariable[] = CONFIG_VARIABLES;
const PIN = 'ab'.repeat(32);
const KEY = Buffer.alloc(32, 7).toString('base64');

/** The names configFromEnv asks the environment for, whatever it is given. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const spy = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  configFromEnv(spy);
  return read;
}

test('every variable the parser reads, in each deployment, is declared and listed by keygate --help', (t) => {
  const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
  t.is(help.status, 0);
  const read = new Set([
    ...namesRead({}),
    ...namesRead({ TE_GATEWAY_KEYSERVER_URL: 'https://ks.example:8443', TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN }),
    ...namesRead({ TE_GATEWAY_REDIS_URL: 'redis://127.0.0.1:6379', TE_GATEWAY_SESSION_KEY: KEY }),
  ]);
  const teRead = [...read].filter((name) => name.startsWith('TE_'));
  t.deepEqual(teRead.sort(), VARIABLES.map((variable) => variable.name).sort());
  for (const name of teRead) t.true(help.stdout.includes(name), `${name} is in --help`);
  for (const name of ['TE_GATEWAY_CORS_ORIGINS', 'TE_GATEWAY_PUBLIC_ORIGIN', 'TE_GATEWAY_REPLAY_CACHE_SIZE', 'TE_KEYSERVER_SEED']) {
    t.regex(help.stdout, new RegExp(`^ +${name} `, 'm'));
  }
});

test('the table names each variable once, and each fills a field the configuration schema knows', (t) => {
  t.is(new Set(VARIABLES.map((variable) => variable.name)).size, VARIABLES.length);
  const shapes: Record<string, string[]> = {
    '': Object.keys(gatewayConfigSchema.shape),
    keyServer: [
      'seed',
      'adminPassword',
      'tokenTtlSeconds',
      'rotationSweepSeconds',
      'maxKeyVersions',
      'deletionMinDays',
      'deletionMaxDays',
      'dataDir',
      'store',
      'postgresUrl',
      'masterKey',
      'masterKeyFile',
      'url',
      'ca',
      'fingerprint',
      'timeoutMs',
      'clientCert',
      'clientKey',
    ],
    sessionStore: ['url', 'sessionKeys', 'timeoutMs'],
    audit: ['url', 'timeoutMs'],
    auditIntegrity: ['writer', 'key', 'signingKey', 'trustedKeys', 'checkpointEvery', 'checkpointSeconds', 'dataDir'],
    http: ['headersTimeoutMs', 'requestTimeoutMs', 'keepAliveTimeoutMs', 'maxConnections'],
  };
  for (const variable of VARIABLES) {
    const [head, leaf] = variable.field.includes('.') ? variable.field.split('.') : ['', variable.field];
    t.true(shapes[head!]!.includes(leaf!), `${variable.name} fills ${variable.field}`);
  }
});

test('defaults come from CONFIG_DEFAULTS: the parsed defaults are the ones --help shows', (t) => {
  const config = configFromEnv({});
  const shown = (name: string) => VARIABLES.find((variable) => variable.name === name)!.default;
  t.is(shown('TE_GATEWAY_PORT'), config.port);
  t.is(shown('TE_GATEWAY_HOST'), config.host);
  t.is(shown('TE_GATEWAY_SESSION_TTL_SECONDS'), config.sessionTtlSeconds);
  t.is(shown('TE_GATEWAY_REPLAY_CACHE_SIZE'), config.replayCacheSize);
  t.is(shown('TE_GATEWAY_LOG_LEVEL'), config.logLevel);
  t.is(shown('TE_GATEWAY_DATA_DIR'), CONFIG_DEFAULTS.cliDataDir);
  t.is(shown('TE_GATEWAY_HEADERS_TIMEOUT_MS'), config.http.headersTimeoutMs);
  t.is(shown('TE_GATEWAY_REQUEST_TIMEOUT_MS'), config.http.requestTimeoutMs);
  t.is(shown('TE_GATEWAY_KEEPALIVE_TIMEOUT_MS'), config.http.keepAliveTimeoutMs);
  t.is(shown('TE_GATEWAY_MAX_CONNECTIONS'), config.http.maxConnections);
});

test('the HTTP edge settings are read from the environment; a headers timeout over the request timeout names both', (t) => {
  const config = configFromEnv({
    TE_GATEWAY_HEADERS_TIMEOUT_MS: '2000',
    TE_GATEWAY_REQUEST_TIMEOUT_MS: '3000',
    TE_GATEWAY_KEEPALIVE_TIMEOUT_MS: '1000',
    TE_GATEWAY_MAX_CONNECTIONS: '7',
  });
  t.deepEqual(config.http, { headersTimeoutMs: 2000, requestTimeoutMs: 3000, keepAliveTimeoutMs: 1000, maxConnections: 7 });
  const error = t.throws(() => configFromEnv({ TE_GATEWAY_HEADERS_TIMEOUT_MS: '9000', TE_GATEWAY_REQUEST_TIMEOUT_MS: '3000' }));
  t.regex(error.message, /TE_GATEWAY_HEADERS_TIMEOUT_MS or TE_GATEWAY_REQUEST_TIMEOUT_MS/);
  t.regex(t.throws(() => configFromEnv({ TE_GATEWAY_MAX_CONNECTIONS: '0' })).message, /^TE_GATEWAY_MAX_CONNECTIONS: /);
  t.is(configFromEnv({ TE_GATEWAY_REPLAY_CACHE_KEY_SHARE: '250' }).replayCacheKeyShare, 250);
  t.is(configFromEnv({}).replayCacheKeyShare, undefined);
});

test('a secret has no default shown, and its value appears neither in --help nor in an error', (t) => {
  const secrets = VARIABLES.filter((variable) => variable.secret).map((variable) => variable.name);
  t.deepEqual(secrets.sort(), [
    'TE_GATEWAY_AUDIT_KEY',
    'TE_GATEWAY_AUDIT_URL',
    'TE_GATEWAY_REDIS_URL',
    'TE_GATEWAY_SESSION_KEY',
    'TE_KEYSERVER_ADMIN_PASSWORD',
    'TE_KEYSERVER_MASTER_KEY',
    'TE_KEYSERVER_POSTGRES_URL',
  ]);
  for (const name of secrets) t.is(VARIABLES.find((variable) => variable.name === name)!.default, undefined);
  const help = spawnSync(process.execPath, [BIN, '--help'], {
    encoding: 'utf8',
    env: { ...process.env, TE_KEYSERVER_ADMIN_PASSWORD: 'pw-in-env-9' },
  });
  t.false(help.stdout.includes('pw-in-env-9'));
  const error = t.throws(() => configFromEnv({ TE_GATEWAY_REDIS_URL: 'redis://:pw-9@h:6379', TE_GATEWAY_SESSION_KEY: `${KEY},pw-9-key` }));
  t.regex(error!.message, /^TE_GATEWAY_SESSION_KEY: key 2 of 2/);
  t.false(error!.message.includes('pw-9'));
});

test('edit distance, and the nearest declared name', (t) => {
  t.is(editDistance('', 'abc'), 3);
  t.is(editDistance('kitten', 'sitting'), 3);
  t.is(editDistance('TE_GATEWAY_PORT', 'TE_GATEWAY_PORT'), 0);
  t.is(nearestVariable('TE_GATEWAY_TYPO_PORT'), 'TE_GATEWAY_PORT');
  t.is(nearestVariable('TE_GATEWAY_LOGLEVEL'), 'TE_GATEWAY_LOG_LEVEL');
  t.is(nearestVariable('TE_KEYSERVER_SEEDS'), 'TE_KEYSERVER_SEED');
});

test('an unknown TE_* variable gives one warning naming the nearest known one; known, harness and other variables none', (t) => {
  const env = { TE_GATEWAY_TYPO_PORT: '8081', TE_GATEWAY_PORT: '8080', TE_TEST_REDIS_URL: 'redis://x', HOME: '/root', TEMP: '/tmp' };
  t.deepEqual(unknownVariableWarnings(env), ['TE_GATEWAY_TYPO_PORT is not a keygate variable; did you mean TE_GATEWAY_PORT?']);
  t.deepEqual(unknownVariableWarnings({ TE_GATEWAY_PORT: '1' }), []);
  const secret = unknownVariableWarnings({ TE_GATEWAY_ADMIN_PASSWORD: 'hunter2' });
  t.is(secret.length, 1);
  t.false(secret[0]!.includes('hunter2'));
});

/** A value unlike the default for one variable, the variables it needs beside it, and what its field then holds. */
interface Sample {
  readonly value: string;
  readonly expected: unknown;
  readonly with?: Record<string, string>;
}

test('every variable of the table, set in the environment, changes the parsed configuration at its field', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-table-walk-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => (writeFileSync(join(dir, name), content), join(dir, name));
  const ca = await createAuthority('table walk');
  const clientKey = ca.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const principals = { principals: [{ name: 'walker', kind: 'user', password: 'walker-pw' }] };
  const daemon = { TE_GATEWAY_KEYSERVER_URL: 'https://ks.example:8443', TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN };
  const redis = { TE_GATEWAY_REDIS_URL: 'redis://127.0.0.1:6390', TE_GATEWAY_SESSION_KEY: KEY };
  const pg = 'postgres://keygate:pw@127.0.0.1:5432/audit';
  // A Record over every name: a variable added to the table without a sample here does not compile.
  const samples: Record<VariableName, Sample> = {
    TE_GATEWAY_HOST: { value: '0.0.0.0', expected: '0.0.0.0' },
    TE_GATEWAY_PORT: { value: '9090', expected: 9090 },
    TE_GATEWAY_SESSION_TTL_SECONDS: { value: '60', expected: 60 },
    TE_GATEWAY_LOG_LEVEL: { value: 'debug', expected: 'debug' },
    TE_GATEWAY_DATA_DIR: { value: dir, expected: dir },
    TE_GATEWAY_AUDIT_URL: { value: pg, expected: pg },
    TE_GATEWAY_AUDIT_KEY: { value: KEY, expected: KEY },
    TE_GATEWAY_AUDIT_KEY_FILE: { value: file('audit-key', `${KEY}\n`), expected: KEY },
    TE_GATEWAY_AUDIT_SIGNING_KEY_FILE: { value: file('signing.pem', clientKey), expected: clientKey },
    TE_GATEWAY_AUDIT_TRUSTED_KEYS: { value: `${file('t1.pem', 'one')},${file('t2.pem', 'two')}`, expected: ['one', 'two'] },
    TE_GATEWAY_AUDIT_WRITER: { value: 'gw-7', expected: 'gw-7' },
    TE_GATEWAY_AUDIT_CHECKPOINT_EVERY: { value: '7', expected: 7 },
    TE_GATEWAY_AUDIT_CHECKPOINT_SECONDS: { value: '9', expected: 9 },
    TE_GATEWAY_AUDIT_TIMEOUT_MS: { value: '750', expected: 750, with: { TE_GATEWAY_AUDIT_URL: pg } },
    TE_GATEWAY_CORS_ORIGINS: { value: 'https://app.example.com', expected: ['https://app.example.com'] },
    TE_GATEWAY_CONSOLE: { value: 'off', expected: 'off' },
    TE_GATEWAY_PUBLIC_ORIGIN: { value: 'https://example.com', expected: 'https://example.com' },
    TE_GATEWAY_REPLAY_CACHE_SIZE: { value: '500', expected: 500 },
    TE_GATEWAY_REPLAY_CACHE_KEY_SHARE: { value: '25', expected: 25 },
    TE_GATEWAY_REPLAY_CACHE_PRINCIPAL_SHARE: { value: '4000', expected: 4000 },
    TE_GATEWAY_SESSION_MINTS_PER_MINUTE: { value: '7', expected: 7 },
    TE_GATEWAY_HEADERS_TIMEOUT_MS: { value: '2000', expected: 2000 },
    TE_GATEWAY_REQUEST_TIMEOUT_MS: { value: '30000', expected: 30_000 },
    TE_GATEWAY_KEEPALIVE_TIMEOUT_MS: { value: '1000', expected: 1000 },
    TE_GATEWAY_MAX_CONNECTIONS: { value: '7', expected: 7 },
    TE_GATEWAY_THROTTLE_NAME_FAILURES: { value: '3', expected: 3 },
    TE_GATEWAY_THROTTLE_ADDRESS_FAILURES: { value: '4', expected: 4 },
    TE_GATEWAY_THROTTLE_WINDOW_SECONDS: { value: '60', expected: 60 },
    TE_GATEWAY_RATE_LIMIT: { value: '10', expected: 10 },
    TE_GATEWAY_TRUSTED_PROXIES: { value: '10.0.0.0/8, ::1', expected: ['10.0.0.0/8', '::1'] },
    TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS: { value: 'issuer.test, [::1]', expected: ['issuer.test', '::1'] },
    TE_GATEWAY_JWKS_CA_FILE: { value: file('jwks-ca.pem', clientKey), expected: clientKey },
    TE_GATEWAY_JWKS_TIMEOUT_MS: { value: '500', expected: 500 },
    TE_GATEWAY_JWKS_CACHE_SECONDS: { value: '60', expected: 60 },
    TE_GATEWAY_MAX_SESSIONS_PER_PRINCIPAL: { value: '3', expected: 3 },
    TE_GATEWAY_IPV6_PREFIX_LENGTH: { value: '56', expected: 56 },
    TE_GATEWAY_METRICS_PORT: { value: '9464', expected: 9464 },
    TE_GATEWAY_METRICS_HOST: { value: '0.0.0.0', expected: '0.0.0.0', with: { TE_GATEWAY_METRICS_PORT: '9464' } },
    TE_KEYSERVER_SEED: { value: file('seed.json', JSON.stringify(principals)), expected: principals },
    TE_KEYSERVER_ADMIN_PASSWORD: { value: 'walk-admin-pw', expected: 'walk-admin-pw' },
    TE_KEYSERVER_TOKEN_TTL_SECONDS: { value: '60', expected: 60 },
    TE_KEYSERVER_ROTATION_SWEEP_SECONDS: { value: '15', expected: 15 },
    TE_KEYSERVER_MAX_KEY_VERSIONS: { value: '250', expected: 250 },
    TE_KEYSERVER_DELETION_MIN_DAYS: { value: '3', expected: 3 },
    TE_KEYSERVER_DELETION_MAX_DAYS: { value: '60', expected: 60 },
    TE_KEYSERVER_STORE: { value: 'memory', expected: 'memory' },
    TE_KEYSERVER_MASTER_KEY: { value: KEY, expected: KEY },
    TE_KEYSERVER_POSTGRES_URL: { value: pg, expected: pg, with: { TE_KEYSERVER_MASTER_KEY: KEY } },
    TE_KEYSERVER_MASTER_KEY_FILE: { value: file('master-keys', `${KEY}\n`), expected: join(dir, 'master-keys') },
    TE_GATEWAY_KEYSERVER_URL: {
      value: 'https://ks.example:8443',
      expected: 'https://ks.example:8443',
      with: { TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN },
    },
    TE_GATEWAY_KEYSERVER_CA: {
      value: file('ca.pem', ca.pem),
      expected: ca.pem,
      with: { TE_GATEWAY_KEYSERVER_URL: daemon.TE_GATEWAY_KEYSERVER_URL },
    },
    TE_GATEWAY_KEYSERVER_FINGERPRINT: {
      value: PIN.toUpperCase(),
      expected: PIN,
      with: { TE_GATEWAY_KEYSERVER_URL: daemon.TE_GATEWAY_KEYSERVER_URL },
    },
    TE_GATEWAY_KEYSERVER_CLIENT_CERT: {
      value: file('client.pem', ca.pem),
      expected: ca.pem,
      with: { ...daemon, TE_GATEWAY_KEYSERVER_CLIENT_KEY: file('client.key', clientKey) },
    },
    TE_GATEWAY_KEYSERVER_CLIENT_KEY: {
      value: file('client2.key', clientKey),
      expected: clientKey,
      with: { ...daemon, TE_GATEWAY_KEYSERVER_CLIENT_CERT: file('c2.pem', ca.pem) },
    },
    TE_GATEWAY_KEYSERVER_TIMEOUT_MS: { value: '750', expected: 750, with: daemon },
    TE_GATEWAY_REDIS_URL: { value: 'redis://127.0.0.1:6390', expected: 'redis://127.0.0.1:6390', with: { TE_GATEWAY_SESSION_KEY: KEY } },
    TE_GATEWAY_SESSION_KEY: { value: KEY, expected: [KEY], with: { TE_GATEWAY_REDIS_URL: redis.TE_GATEWAY_REDIS_URL } },
    TE_GATEWAY_REDIS_TIMEOUT_MS: { value: '250', expected: 250, with: redis },
  };
  const at = (config: unknown, field: string) =>
    field.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], config);
  const byDefault = configFromEnv({});
  t.deepEqual(Object.keys(samples).sort(), VARIABLES.map((variable) => variable.name).sort());
  for (const variable of VARIABLES) {
    const sample = samples[variable.name as VariableName];
    const config = configFromEnv({ ...sample.with, [variable.name]: sample.value });
    t.deepEqual(at(config, variable.field), sample.expected, `${variable.name} fills ${variable.field}`);
    t.notDeepEqual(at(byDefault, variable.field), sample.expected, `${variable.name}'s sample is not the default`);
  }
});
