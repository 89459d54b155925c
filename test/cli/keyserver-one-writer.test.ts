import { rmSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { killAllDaemons, spawnDaemon, testClient } from '../_support/keyserver-daemon.js';
import { runKeygate } from '../_support/process-run.js';
import { scratchDir } from '../_support/scratch-dirs.js';

test.after.always(killAllDaemons);

const HOLDER = (pid: number | undefined) => `held by pid ${pid} on host \\S+ since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z`;

test('a second keygate keyserver on a store another daemon holds is refused at boot with one line naming the holder', async (t) => {
  const data = join(scratchDir('keygate-ks-writer-'), 'ks.db');
  const first = await spawnDaemon(t, ['--data', data, '--port', '0']);
  const trust = ['--client-fingerprint', (await testClient()).fingerprint];
  const second = await runKeygate(t, ['keyserver', '--data', data, '--port', '0', ...trust], { TE_KEYSERVER_ADMIN_PASSWORD: '' });
  t.is(second.status, 2, `${second.stdout}${second.stderr}`);
  t.regex(second.stderr, new RegExp(`^keygate: --data: ${data} is ${HOLDER(first.child.pid)}[^\\n]*\\n$`));
  t.is(second.stdout, '');
});

test("keygate serve whose data directory holds a serving daemon's store is refused at boot naming the daemon", async (t) => {
  const dataDir = scratchDir('keygate-ks-writer-serve-');
  const daemon = await spawnDaemon(t, ['--data', join(dataDir, 'keyserver.db'), '--port', '0']);
  const env = {
    TE_GATEWAY_HOST: '127.0.0.1',
    TE_GATEWAY_PORT: '0',
    TE_GATEWAY_DATA_DIR: dataDir,
    TE_KEYSERVER_ADMIN_PASSWORD: 'admin-pw-1',
  };
  const serve = await runKeygate(t, ['serve'], env);
  t.is(serve.status, 2, `${serve.stdout}${serve.stderr}`);
  t.regex(serve.stderr, new RegExp(`^keygate: [^\\n]*keyserver\\.db is ${HOLDER(daemon.child.pid)}[^\\n]*\\n$`));
});

test('a daemon killed with SIGKILL leaves no lock behind: the next one on its store starts', async (t) => {
  const data = join(scratchDir('keygate-ks-writer-kill-'), 'ks.db');
  const first = await spawnDaemon(t, ['--data', data, '--port', '0']);
  await first.kill();
  const second = await spawnDaemon(t, ['--data', data, '--port', '0']);
  t.is(second.fingerprint, first.fingerprint);
  t.is(await second.stop(), 0);
});

test('a writer lock removed under a running daemon is logged as a writer conflict', async (t) => {
  const data = join(scratchDir('keygate-ks-writer-conflict-'), 'ks.db');
  const daemon = await spawnDaemon(t, ['--data', data, '--port', '0']);
  rmSync(`${data}.lock`);
  // The daemon looks at its lock every 5 s in real time: a bounded wait.
  for (let waited = 0; !/writer conflict/.test(daemon.output()) && waited < 20_000; waited += 100)
    await new Promise((done) => setTimeout(done, 100));
  t.regex(
    daemon.output(),
    new RegExp(`^keygate keyserver: error: writer conflict: writer lock ${data}\\.lock was removed under this process$`, 'm'),
  );
});
