import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ConfigError } from '../../src/keyserver/config-error.js';
import { type DaemonOptions, parseDaemonArgs } from '../../src/keyserver/daemon/daemon-options.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const dir = scratchDir('keygate-options-');
/** Every daemon names the gateways it trusts (mutual TLS); tests of other flags give one pin. */
const PIN = 'ab'.repeat(32);
const TRUST = ['--client-fingerprint', PIN];
const trust = { cas: [], fingerprints: [PIN] };

test('defaults: 127.0.0.1:8443, ./data/keyserver.db, generated identity, tokens that never expire', (t) => {
  t.deepEqual(parseDaemonArgs(TRUST, {}), { clientTrust: trust, host: '127.0.0.1', port: 8443, dataPath: './data/keyserver.db' });
});

test('reads every flag, the seed file, and the admin password from the environment', (t) => {
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify({ principals: [{ name: 'alice', kind: 'user', password: 'pw' }] }));
  const options = parseDaemonArgs(
    [
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--data',
      ':memory:',
      '--cert',
      'a.crt',
      '--key',
      'a.key',
      '--token-ttl',
      '30',
      '--seed',
      seed,
      ...TRUST,
    ],
    { TE_KEYSERVER_ADMIN_PASSWORD: 'from-env' },
  );
  t.deepEqual(options, {
    clientTrust: trust,
    host: '0.0.0.0',
    port: 0,
    dataPath: ':memory:',
    identity: { certPath: 'a.crt', keyPath: 'a.key' },
    tokenTtlSeconds: 30,
    seed: { principals: [{ name: 'alice', kind: 'user', password: 'pw' }] },
    seedFile: seed,
    adminPassword: 'from-env',
  });
  t.is(
    (parseDaemonArgs(['--admin-password', 'flag', ...TRUST], { TE_KEYSERVER_ADMIN_PASSWORD: 'env' }) as { adminPassword: string })
      .adminPassword,
    'flag',
  );
  t.is(parseDaemonArgs(['--help'], {}), 'help');
  t.is(parseDaemonArgs(['-h'], {}), 'help');
});

const bad: [string, string[], RegExp][] = [
  ['an unknown option', ['--nope'], /^unknown option --nope$/],
  ['an option without its value', ['--port'], /^option --port needs a value$/],
  ['a positional argument', ['extra'], /^unexpected argument extra$/],
  ['a port that is not a number', ['--port', 'https'], /^--port:/],
  ['a port out of range', ['--port', '65536'], /^--port:/],
  ['a zero token lifetime', ['--token-ttl', '0'], /^--token-ttl:/],
  ['a certificate without its key', ['--cert', 'a.crt'], /^--cert and --key go together$/],
  ['an empty admin password', ['--admin-password', ''], /^--admin-password:/],
  ['a seed file that does not exist', ['--seed', join(dir, 'none.json')], /^--seed: cannot read .*ENOENT/],
];
for (const [name, args, message] of bad) {
  test(`refuses ${name} with one line naming it`, (t) => {
    const error = t.throws(() => parseDaemonArgs([...args, ...TRUST], {}), { instanceOf: ConfigError });
    t.regex(error!.message, message);
    t.false(error!.message.includes('\n'));
  });
}

test('--rotation-sweep or TE_KEYSERVER_ROTATION_SWEEP_SECONDS sets the sweep period; neither leaves the default', (t) => {
  t.is((parseDaemonArgs([...TRUST, '--rotation-sweep', '5'], {}) as DaemonOptions).rotationSweepSeconds, 5);
  t.is((parseDaemonArgs(TRUST, { TE_KEYSERVER_ROTATION_SWEEP_SECONDS: '120' }) as DaemonOptions).rotationSweepSeconds, 120);
  t.is((parseDaemonArgs(TRUST, {}) as DaemonOptions).rotationSweepSeconds, undefined);
  t.throws(() => parseDaemonArgs([...TRUST, '--rotation-sweep', '0'], {}), {
    message: '--rotation-sweep: expected an integer from 1 to 86400, got "0"',
  });
});
