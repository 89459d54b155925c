import test from 'ava';
import { spawnSync } from 'node:child_process';
import { CONFIG_DEFAULTS, gatewayConfigSchema } from '../../src/app/config.js';
import { CONFIG_VARIABLES, type ConfigVariable } from '../../src/app/config-variables.js';
import { configFromEnv } from '../../src/app/env-config.js';
import { editDistance, nearestVariable, unknownVariableWarnings } from '../../src/app/unknown-variables.js';

const BIN = new URL('../../bin/keygate.js', import.meta.url).pathname;
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
    keyServer: ['seed', 'adminPassword', 'tokenTtlSeconds', 'dataDir', 'url', 'ca', 'fingerprint', 'timeoutMs'],
    sessionStore: ['url', 'sessionKeys', 'timeoutMs'],
    audit: ['url', 'timeoutMs'],
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
});

test('a secret has no default shown, and its value appears neither in --help nor in an error', (t) => {
  const secrets = VARIABLES.filter((variable) => variable.secret).map((variable) => variable.name);
  t.deepEqual(secrets.sort(), ['TE_GATEWAY_AUDIT_URL', 'TE_GATEWAY_REDIS_URL', 'TE_GATEWAY_SESSION_KEY', 'TE_KEYSERVER_ADMIN_PASSWORD']);
  for (const name of secrets) t.is(VARIABLES.find((variable) => variable.name === name)!.default, undefined);
  const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', env: { ...process.env, TE_KEYSERVER_ADMIN_PASSWORD: 'pw-in-env-9' } });
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
