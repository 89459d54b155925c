import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { login } from '../_support/first-start.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { startTestPostgres } from '../_support/postgres.js';
import { runKeygate } from '../_support/process-run.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { skipAll } from '../_support/skip.js';

test.after.always(killAllGateways);
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const NEW_PASSWORD = /^keygate keyserver: new password for "admin" \(shown once\): (\S{24})\n$/;

test('keygate keyserver reset-password gives admin a new password on the store of a stopped keygate serve, refused while it runs', async (t) => {
  const dataDir = scratchDir('keygate-reset-sqlite-');
  const env = { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: 'the-forgotten-password' };
  const store = join(dataDir, 'keyserver.db');
  const running = await spawnGateway(t, env);
  const refused = await runKeygate(t, ['keyserver', 'reset-password', 'admin', '--data', store]);
  t.is(refused.status, 1, refused.stderr);
  t.regex(refused.stderr, new RegExp(`^keygate: reset-password: ${store} is held by pid ${running.child.pid} on host \\S+ since `));
  t.is(refused.stdout, '');
  t.is(await login(running.url, 'admin', 'the-forgotten-password'), 201, 'a refused reset changes nothing');
  t.is(await running.stop(), 0);

  const reset = await runKeygate(t, ['keyserver', 'reset-password', 'admin', '--data', store]);
  t.is(reset.status, 0, reset.stderr);
  const password = NEW_PASSWORD.exec(reset.stdout)?.[1];
  t.truthy(password, reset.stdout);
  const again = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir });
  t.is(await login(again.url, 'admin', password!), 201, 'the new password logs in');
  t.is(await login(again.url, 'admin', 'the-forgotten-password'), 401, 'the old one no longer does');
});

test('keygate keyserver reset-password: --help, a missing principal, an unknown one, a store that is not there', async (t) => {
  const help = await runKeygate(t, ['keyserver', 'reset-password', '--help']);
  t.is(help.status, 0);
  t.regex(help.stdout, /^Usage: keygate keyserver reset-password PRINCIPAL /);
  const usage = await runKeygate(t, ['keyserver', 'reset-password']);
  t.is(usage.status, 2);
  t.regex(
    usage.stderr,
    /^keygate: reset-password: PRINCIPAL is required \(run "keygate keyserver reset-password --help" for the usage\)\n$/,
  );
  t.regex((await runKeygate(t, ['keyserver', '--help'])).stdout, /keygate keyserver reset-password PRINCIPAL/);

  const dataDir = scratchDir('keygate-reset-refusals-');
  const gateway = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: 'an-admin-password' });
  t.is(await gateway.stop(), 0);
  const store = join(dataDir, 'keyserver.db');
  const unknown = await runKeygate(t, ['keyserver', 'reset-password', 'nobody', '--data', store]);
  t.is(unknown.status, 1);
  t.is(unknown.stderr, 'keygate: reset-password: no principal "nobody" in this store\n');
  const missing = await runKeygate(t, ['keyserver', 'reset-password', 'admin', '--data', join(dataDir, 'elsewhere.db')]);
  t.is(missing.status, 1);
  t.regex(missing.stderr, /elsewhere\.db: not found\n$/);
});

if (postgres.url === undefined) skipAll('keygate keyserver reset-password on PostgreSQL', postgres.reason!);
else
  test('keygate keyserver reset-password on the PostgreSQL store of keygate serve, with the environment serve takes; refused while it serves', async (t) => {
    const env = {
      TE_GATEWAY_DATA_DIR: scratchDir('keygate-reset-pg-'),
      TE_KEYSERVER_POSTGRES_URL: postgres.url!,
      TE_KEYSERVER_MASTER_KEY: randomBytes(32).toString('base64'),
      TE_KEYSERVER_ADMIN_PASSWORD: 'the-forgotten-pg-password',
    };
    const running = await spawnGateway(t, env);
    const refused = await runKeygate(t, ['keyserver', 'reset-password', 'admin'], env);
    t.is(refused.status, 1, refused.stderr);
    t.regex(refused.stderr, /^keygate: reset-password: a key-server daemon serves this PostgreSQL store: stop every daemon on it first\n$/);
    t.false(refused.stderr.includes(postgres.url!), 'the URL (and its password) is never echoed');
    t.is(await running.stop(), 0);

    const reset = await runKeygate(t, ['keyserver', 'reset-password', 'admin'], env);
    t.is(reset.status, 0, reset.stderr);
    const password = NEW_PASSWORD.exec(reset.stdout)?.[1];
    t.truthy(password, reset.stdout);
    const again = await spawnGateway(t, env);
    t.is(await login(again.url, 'admin', password!), 201);
    t.is(await login(again.url, 'admin', 'the-forgotten-pg-password'), 401);
  });
