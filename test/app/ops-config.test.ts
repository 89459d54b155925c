import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { configFromEnv } from '../../src/app/config/from-env.js';
import { unknownVariableWarnings } from '../../src/app/config/unknown-variables.js';

const PG = 'postgres://keygate:pw@127.0.0.1:5432/audit';

test('TE_GATEWAY_AUDIT_TIMEOUT_MS bounds PostgreSQL audit calls, 2000 ms by default, and applies only with an audit URL', (t) => {
  const byDefault = configFromEnv({ TE_GATEWAY_AUDIT_URL: PG });
  t.like(byDefault.audit, { kind: 'postgres', timeoutMs: 2_000 });
  t.like(configFromEnv({ TE_GATEWAY_AUDIT_URL: PG, TE_GATEWAY_AUDIT_TIMEOUT_MS: '750' }).audit, { timeoutMs: 750 });
  t.throws(() => configFromEnv({ TE_GATEWAY_AUDIT_TIMEOUT_MS: '750' }), {
    message: /TE_GATEWAY_AUDIT_TIMEOUT_MS: applies only with TE_GATEWAY_AUDIT_URL/,
  });
  t.throws(() => configFromEnv({ TE_GATEWAY_AUDIT_URL: PG, TE_GATEWAY_AUDIT_TIMEOUT_MS: '0' }), { message: /TE_GATEWAY_AUDIT_TIMEOUT_MS/ });
});

test('TE_GATEWAY_METRICS_PORT turns the metrics listener on; unset, it is off', (t) => {
  t.is(configFromEnv({}).metricsPort, undefined);
  t.is(configFromEnv({ TE_GATEWAY_METRICS_PORT: '9464' }).metricsPort, 9464);
  t.throws(() => configFromEnv({ TE_GATEWAY_METRICS_PORT: '70000' }), { message: /TE_GATEWAY_METRICS_PORT/ });
});

test('every variable has a _FILE variant: secrets read from files, never both, an unreadable file named without its content', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-env-files-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => (writeFileSync(join(dir, name), content, { mode: 0o600 }), join(dir, name));
  const sessionKey = randomBytes(32).toString('base64');
  const config = configFromEnv({
    TE_KEYSERVER_ADMIN_PASSWORD_FILE: file('admin', 'file-admin-pw\n'),
    TE_GATEWAY_AUDIT_URL_FILE: file('audit-url', `${PG}\n`),
    TE_GATEWAY_REDIS_URL: 'redis://127.0.0.1:6379',
    TE_GATEWAY_SESSION_KEY_FILE: file('session-key', `${sessionKey}\n`),
  });
  t.like(config.keyServer, { kind: 'embedded', adminPassword: 'file-admin-pw' });
  t.like(config.audit, { kind: 'postgres', url: PG });
  t.like(config.sessionStore, { kind: 'redis', sessionKeys: [sessionKey] });
  const both = t.throws(() =>
    configFromEnv({ TE_KEYSERVER_ADMIN_PASSWORD: 'x', TE_KEYSERVER_ADMIN_PASSWORD_FILE: file('a2', 'file-secret-9') }),
  );
  t.regex(both.message, /TE_KEYSERVER_ADMIN_PASSWORD_FILE: set it or TE_KEYSERVER_ADMIN_PASSWORD, not both/);
  const missing = t.throws(() => configFromEnv({ TE_GATEWAY_AUDIT_URL_FILE: join(dir, 'nope') }));
  t.regex(missing.message, /TE_GATEWAY_AUDIT_URL_FILE: cannot read .*nope \(ENOENT\)/);
  t.deepEqual(unknownVariableWarnings({ TE_KEYSERVER_ADMIN_PASSWORD_FILE: 'x', TE_GATEWAY_AUDIT_URL_FILE: 'y' }), []);
  t.is(unknownVariableWarnings({ TE_NOT_A_VARIABLE_FILE: 'x' }).length, 1);
});

test('a variable declared with a _FILE name keeps its own meaning: the master key file stays a file the key server reads and rotates', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-env-files-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const keyFile = join(dir, 'master-keys');
  writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  const config = configFromEnv({ TE_KEYSERVER_MASTER_KEY_FILE: keyFile }, { dataDir: dir });
  t.like(config.keyServer, { kind: 'embedded', masterKeyFile: keyFile });
  t.false('masterKey' in config.keyServer && config.keyServer.masterKey !== undefined, 'not read as TE_KEYSERVER_MASTER_KEY');
  t.deepEqual(unknownVariableWarnings({ TE_KEYSERVER_MASTER_KEY_FILE: keyFile, TE_GATEWAY_AUDIT_KEY_FILE: keyFile }), []);
});
