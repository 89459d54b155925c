import { spawnSync } from 'node:child_process';
import test from 'ava';
import { parseCorsOrigins } from '../../../src/app/config/cors-origins.js';
import { ConfigError } from '../../../src/keyserver/config-error.js';

test('an unset or empty allowlist is no allowlist', (t) => {
  t.deepEqual(parseCorsOrigins(undefined), []);
  t.deepEqual(parseCorsOrigins(''), []);
  t.deepEqual(parseCorsOrigins('   '), []);
});

test('entries are trimmed, duplicates collapse, default ports drop, host case folds', (t) => {
  t.deepEqual(parseCorsOrigins(' https://app.example.com , http://localhost:5173,https://app.example.com:443, HTTPS://APP.example.com'), [
    'https://app.example.com',
    'http://localhost:5173',
  ]);
  t.deepEqual(parseCorsOrigins('http://localhost:80'), ['http://localhost']);
  t.deepEqual(parseCorsOrigins('http://[::1]:8080'), ['http://[::1]:8080']);
});

const refused: [string, string][] = [
  ['a wildcard', '*'],
  ['a wildcard host', 'https://*.example.com'],
  ['a trailing slash', 'https://app.example.com/'],
  ['a path', 'https://app.example.com/app'],
  ['a query', 'https://app.example.com?x=1'],
  ['a fragment', 'https://app.example.com#top'],
  ['no scheme', 'app.example.com'],
  ['another scheme', 'ftp://app.example.com'],
  ['credentials', 'https://user:pw@app.example.com'],
  ['a bad port', 'https://app.example.com:99999'],
  ['one bad entry among good ones', 'https://a.example.com, https://b.example.com/'],
];
for (const [name, value] of refused) {
  test(`refuses ${name}, naming the variable and the entry`, (t) => {
    const error = t.throws(() => parseCorsOrigins(value), { instanceOf: ConfigError });
    t.regex(error!.message, /^TE_GATEWAY_CORS_ORIGINS: entry "/);
    t.false(error!.message.includes('\n'));
  });
}

test('the CLI stops at boot with a diagnostic for a wildcard allowlist', (t) => {
  const bin = new URL('../../_support/keygate-from-source.js', import.meta.url).pathname;
  const run = spawnSync(process.execPath, [bin, 'serve'], {
    env: { ...process.env, TE_GATEWAY_CORS_ORIGINS: '*', TE_GATEWAY_PORT: '0' },
    encoding: 'utf8',
  });
  t.is(run.status, 2);
  t.regex(run.stderr, /TE_GATEWAY_CORS_ORIGINS: entry "\*"/);
});
