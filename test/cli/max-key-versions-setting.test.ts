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
 * TE_KEYSERVER_MAX_KEY_VERSIONS (docs/spec.md §4.22 item 2) set as an operator sets it: in the
 * environment of a real `keygate serve`, and of a real `keygate keyserver`, whose rotations stop there.
 */
test.after.always(killAllGateways);
test.after.always(killAllDaemons);

const dir = scratchDir('keygate-max-versions-');
const ADMIN = 'max-versions-admin-1';

/** Signs in as admin, makes a key and rotates it twice: the second rotation meets a limit of 2. */
async function rotateToTheLimit(t: ExecutionContext, url: string): Promise<void> {
  const login = await call(url, 'POST', '/api/session', { body: { user: 'admin', password: ADMIN } });
  t.is(login.status, 201, login.text);
  const headers = bearer(login.body.sessionId as string);
  const created = await call(url, 'POST', '/api/keys', { headers, body: { keyLen: 16 } });
  t.is(created.status, 201, created.text);
  const path = `/api/keys/${encodeURIComponent(created.body.ttag as string)}/rotate`;
  const rotated = await call(url, 'POST', path, { headers });
  t.is(rotated.status, 200, rotated.text);
  t.is(rotated.body.version, 2);
  const refused = await call(url, 'POST', path, { headers });
  t.is(refused.status, 409, refused.text);
  t.is(refused.body.code, 'KEY_VERSIONS_EXHAUSTED');
}

test('keygate serve with TE_KEYSERVER_MAX_KEY_VERSIONS=2: a key rotates once, and the next rotation is 409 KEY_VERSIONS_EXHAUSTED', async (t) => {
  const passwordFile = join(dir, 'admin-password');
  writeFileSync(passwordFile, `${ADMIN}\n`, { mode: 0o600 });
  const gateway = await spawnGateway(t, {
    TE_KEYSERVER_ADMIN_PASSWORD_FILE: passwordFile,
    TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'data-')),
    TE_KEYSERVER_MAX_KEY_VERSIONS: '2',
  });
  await rotateToTheLimit(t, gateway.url);
});

test('keygate keyserver with TE_KEYSERVER_MAX_KEY_VERSIONS=2: behind a real gateway, the next rotation is 409 KEY_VERSIONS_EXHAUSTED', async (t) => {
  const daemon = await spawnDaemon(t, ['--data', ':memory:', '--port', '0', '--admin-password', ADMIN], {
    TE_KEYSERVER_MAX_KEY_VERSIONS: '2',
  });
  const gateway = await spawnGateway(t, {
    ...(await clientEnv()),
    TE_GATEWAY_KEYSERVER_URL: daemon.url,
    TE_GATEWAY_KEYSERVER_FINGERPRINT: daemon.fingerprint,
    TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'gw-')),
  });
  await rotateToTheLimit(t, gateway.url);
});

test('keygate serve with TE_KEYSERVER_MAX_KEY_VERSIONS out of range stops with one line naming the variable, exit 2', async (t) => {
  const serve = await runKeygate(t, ['serve'], {
    TE_GATEWAY_HOST: '127.0.0.1',
    TE_GATEWAY_PORT: '0',
    TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'bad-')),
    TE_KEYSERVER_MAX_KEY_VERSIONS: '0',
  });
  t.is(serve.status, 2, `${serve.stdout}${serve.stderr}`);
  t.regex(serve.stderr, /^keygate: [^\n]*TE_KEYSERVER_MAX_KEY_VERSIONS[^\n]*\n$/);
});

test('keygate keyserver refuses a bad TE_KEYSERVER_MAX_KEY_VERSIONS, or both it and --max-key-versions, with one line naming them', async (t) => {
  const bad = await runKeyserverCli(['--data', ':memory:', '--port', '0'], { TE_KEYSERVER_MAX_KEY_VERSIONS: 'many' });
  t.is(bad.status, 2, bad.stderr);
  t.regex(bad.stderr, /^keygate: TE_KEYSERVER_MAX_KEY_VERSIONS: [^\n]*"many"\n$/);
  const both = await runKeyserverCli(['--data', ':memory:', '--max-key-versions', '3'], { TE_KEYSERVER_MAX_KEY_VERSIONS: '3' });
  t.is(both.status, 2);
  t.is(both.stderr, 'keygate: --max-key-versions and TE_KEYSERVER_MAX_KEY_VERSIONS: give one of the two\n');
});
