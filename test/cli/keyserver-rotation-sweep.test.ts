import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { engineOn, tokensFor } from '../_support/engine-stores.js';
import { runKeyserverCli } from '../_support/keyserver-cli.js';
import { killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const dir = scratchDir('keygate-sweep-');
test.after.always(killAllDaemons);

const DAY = 86_400_000;

for (const value of ['0', '86401', 'soon', '1.5']) {
  test(`TE_KEYSERVER_ROTATION_SWEEP_SECONDS=${value} stops keygate keyserver with one line naming the variable`, async (t) => {
    const result = await runKeyserverCli(['--data', ':memory:', '--port', '0'], { TE_KEYSERVER_ROTATION_SWEEP_SECONDS: value });
    t.is(result.status, 2, result.stderr);
    t.is(result.stderr, `keygate: TE_KEYSERVER_ROTATION_SWEEP_SECONDS: expected an integer from 1 to 86400, got "${value}"\n`);
  });
}

test('the variable and --rotation-sweep together are refused', async (t) => {
  const result = await runKeyserverCli(['--data', ':memory:', '--rotation-sweep', '5'], { TE_KEYSERVER_ROTATION_SWEEP_SECONDS: '5' });
  t.is(result.status, 2);
  t.is(result.stderr, 'keygate: --rotation-sweep and TE_KEYSERVER_ROTATION_SWEEP_SECONDS: give one of the two\n');
});

test('keygate keyserver sweeps on the period TE_KEYSERVER_ROTATION_SWEEP_SECONDS sets: a key past its rotation period gets one new version', async (t) => {
  const master = generateMasterKey();
  const data = join(dir, 'due.db');
  // The store as a key server left it two days ago: a key whose P1D period has since passed.
  const past = new ManualClock(Date.now() - 2 * DAY);
  const before = await engineOn(t, new SqliteEngineStore(data, new MasterKeyring([master])), past);
  const { alice } = await tokensFor(before.engine, before.store, ['alice']);
  const { ttag } = await before.engine.atomically(() => before.engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'P1D' }));
  await before.engine.close();

  const daemon = await spawnDaemon(t, ['--data', data, '--port', '0'], {
    TE_KEYSERVER_MASTER_KEY: master.key.toString('base64'),
    TE_KEYSERVER_ROTATION_SWEEP_SECONDS: '1',
  });
  // The first sweep comes one second after the start; a bounded wait for its line.
  for (let waited = 0; waited < 20_000 && !/scheduled rotation: 1 key\(s\) rotated/.test(daemon.output()); waited += 100) await sleep(100);
  t.regex(daemon.output(), /keygate keyserver: scheduled rotation: 1 key\(s\) rotated, 0 failed/);
  t.false(daemon.output().includes(ttag), 'the log names no key');
  t.is(await daemon.stop(), 0);

  const after = await engineOn(t, new SqliteEngineStore(data, new MasterKeyring([master])));
  const { alice: again } = await tokensFor(after.engine, after.store, ['alice']);
  t.is((await after.engine.keys.view(again!, ttag)).version, 2);
});
