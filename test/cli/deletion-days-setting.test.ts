import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { bearer } from '../_support/api-client.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';
import { runKeyserverCli } from '../_support/keyserver-cli.js';
import { clientEnv, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { runKeygate } from '../_support/process-run.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/**
 * TE_KEYSERVER_DELETION_MIN_DAYS and _MAX_DAYS (docs/spec.md §4.23 item 5) set as an operator sets
 * them: in the environment of a real `keygate serve`, and of a real `keygate keyserver`.
 */
test.after.always(killAllGateways);
test.after.always(killAllDaemons);

const dir = scratchDir('keygate-deletion-days-');
const ADMIN = 'deletion-days-admin-1';
const DAY = 86_400_000;

/** Signs in as admin and makes a key: schedules outside the bounds are refused naming them, and none given waits the maximum. */
async function scheduleWithin(t: ExecutionContext, url: string, min: number, max: number): Promise<void> {
  const login = await call(url, 'POST', '/api/session', { body: { user: 'admin', password: ADMIN } });
  t.is(login.status, 201, login.text);
  const headers = bearer(login.body.sessionId as string);
  const created = await call(url, 'POST', '/api/keys', { headers, body: {} });
  t.is(created.status, 201, created.text);
  const path = `/api/keys/${encodeURIComponent(created.body.ttag as string)}/schedule-deletion`;
  const below = await call(url, 'POST', path, { headers, body: { pendingDays: min - 1 } });
  t.is(below.status, 400, below.text);
  t.is(below.body.detail, `pendingDays: an integer from ${min} to ${max} (the key server's bounds)`);
  const above = await call(url, 'POST', path, { headers, body: { pendingDays: max + 1 } });
  t.is(above.status, 400, above.text);
  const before = Date.now();
  const scheduled = await call(url, 'POST', path, { headers, body: {} });
  t.is(scheduled.status, 200, scheduled.text);
  const waits = Date.parse(scheduled.body.deletionAt as string) - before;
  t.true(waits >= max * DAY - 60_000 && waits <= max * DAY + 60_000, `waits the maximum, ${max} days`);
}

test('keygate serve with TE_KEYSERVER_DELETION_MIN_DAYS=2 and _MAX_DAYS=3: a deletion waits 2 to 3 days, 3 when not told', async (t) => {
  const passwordFile = join(dir, 'admin-password');
  writeFileSync(passwordFile, `${ADMIN}\n`, { mode: 0o600 });
  const gateway = await spawnGateway(t, {
    TE_KEYSERVER_ADMIN_PASSWORD_FILE: passwordFile,
    TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'data-')),
    TE_KEYSERVER_DELETION_MIN_DAYS: '2',
    TE_KEYSERVER_DELETION_MAX_DAYS: '3',
  });
  await scheduleWithin(t, gateway.url, 2, 3);
});

test('keygate keyserver with TE_KEYSERVER_DELETION_MAX_DAYS=10: behind a real gateway, a deletion waits 7 to 10 days', async (t) => {
  const daemon = await spawnDaemon(t, ['--data', ':memory:', '--port', '0', '--admin-password', ADMIN], {
    TE_KEYSERVER_DELETION_MAX_DAYS: '10',
  });
  const gateway = await spawnGateway(t, {
    ...(await clientEnv()),
    TE_GATEWAY_KEYSERVER_URL: daemon.url,
    TE_GATEWAY_KEYSERVER_FINGERPRINT: daemon.fingerprint,
    TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'gw-')),
  });
  await scheduleWithin(t, gateway.url, 7, 10);
});

test('keygate serve with a deletion minimum above the maximum stops with one line naming it, exit 2', async (t) => {
  const serve = await runKeygate(t, ['serve'], {
    TE_GATEWAY_HOST: '127.0.0.1',
    TE_GATEWAY_PORT: '0',
    TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'bad-')),
    TE_KEYSERVER_DELETION_MIN_DAYS: '40',
  });
  t.is(serve.status, 2, `${serve.stdout}${serve.stderr}`);
  t.regex(serve.stderr, /^keygate: [^\n]*deletion minimum is above the maximum[^\n]*\n$/);
  const outOfRange = await runKeygate(t, ['serve'], {
    TE_GATEWAY_HOST: '127.0.0.1',
    TE_GATEWAY_PORT: '0',
    TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'bad-')),
    TE_KEYSERVER_DELETION_MAX_DAYS: '366',
  });
  t.is(outOfRange.status, 2, `${outOfRange.stdout}${outOfRange.stderr}`);
  t.regex(outOfRange.stderr, /^keygate: [^\n]*TE_KEYSERVER_DELETION_MAX_DAYS[^\n]*\n$/);
});

test('keygate keyserver refuses a deletion minimum above the maximum, or a bound and its variable both, with one line naming them', async (t) => {
  const above = await runKeyserverCli(['--data', ':memory:', '--port', '0', '--deletion-min-days', '40'], {});
  t.is(above.status, 2, above.stderr);
  t.is(above.stderr, 'keygate: --deletion-min-days, --deletion-max-days: the deletion minimum (40 days) is above the maximum (30 days)\n');
  const both = await runKeyserverCli(['--data', ':memory:', '--deletion-max-days', '9'], { TE_KEYSERVER_DELETION_MAX_DAYS: '9' });
  t.is(both.status, 2);
  t.is(both.stderr, 'keygate: --deletion-max-days and TE_KEYSERVER_DELETION_MAX_DAYS: give one of the two\n');
  const zero = await runKeyserverCli(['--data', ':memory:'], { TE_KEYSERVER_DELETION_MIN_DAYS: '0' });
  t.is(zero.status, 2);
  t.regex(zero.stderr, /^keygate: TE_KEYSERVER_DELETION_MIN_DAYS: expected an integer from 1 to 365, got "0"\n$/);
});
