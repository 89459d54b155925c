import { rmSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { healthUntil } from '../_support/health-wait.js';
import { call } from '../_support/http.js';
import { runKeygate } from '../_support/process-run.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const ADMIN = 'admin-password-writer-1';
test.after.always(killAllGateways);

const HOLDER = (pid: number | undefined) => `held by pid ${pid} on host \\S+ since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z`;

test('a second keygate serve on the data directory another one holds is refused at boot with one line naming the holder', async (t) => {
  const dataDir = scratchDir('keygate-one-writer-');
  const env = { TE_GATEWAY_HOST: '127.0.0.1', TE_GATEWAY_PORT: '0', TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: ADMIN };
  const first = await spawnGateway(t, env);
  const second = await runKeygate(t, ['serve'], env);
  t.is(second.status, 2, `${second.stdout}${second.stderr}`);
  t.regex(second.stderr, new RegExp(`^keygate: TE_GATEWAY_DATA_DIR: ${dataDir} is ${HOLDER(first.child.pid)}[^\\n]*\\n$`));
  t.is(second.stdout, '');
  const login = await call(first.url, 'POST', '/login', { body: { user: 'admin', password: ADMIN } });
  t.is(login.status, 200, 'the holder serves on');
  t.like((await call(first.url, 'GET', '/api/health')).body, { ok: true, checks: { writer: 'ok' } });
});

test('a keygate serve killed with SIGKILL leaves no lock behind: the next one on its data directory boots', async (t) => {
  const dataDir = scratchDir('keygate-one-writer-kill-');
  const env = { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: ADMIN };
  const first = await spawnGateway(t, env);
  t.is(await first.stop('SIGKILL'), null);
  const second = await spawnGateway(t, env);
  const login = await call(second.url, 'POST', '/login', { body: { user: 'admin', password: ADMIN } });
  t.is(login.status, 200, login.text);
});

test('a writer lock removed under a running keygate serve turns /health to a writer conflict, and the log names the lock file', async (t) => {
  const dataDir = scratchDir('keygate-one-writer-conflict-');
  const gw = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: ADMIN });
  t.like((await call(gw.url, 'GET', '/api/health')).body, { ok: true, checks: { writer: 'ok' } });
  const lock = join(dataDir, 'keyserver.db.lock');
  rmSync(lock);
  // The lock is looked at by the background health round, once a second in real time.
  const health = await healthUntil({ call: (method, path) => call(gw.url, method, path) }, false, { timeoutMs: 20_000 });
  t.is(health.status, 503);
  t.like(health.body, {
    ok: false,
    checks: { keyServer: 'ok', auditStore: 'ok', sessionStore: 'ok', writer: 'conflict' },
    reasons: { writer: "embedded key server: the store's writer lock was removed or replaced; another process may write it" },
  });
  t.false(JSON.stringify(health.body).includes(dataDir), 'no path in an unauthenticated answer');
  t.like((await call(gw.url, 'GET', '/health')).body, { ok: false });
  t.regex(gw.output(), new RegExp(`"detail":"writer lock ${lock} was removed under this process","msg":"writer conflict`));
});
