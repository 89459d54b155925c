import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { startScheduleSweep } from '../../src/keyserver/engine/schedule-sweep.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { engineOn, tokensFor } from '../_support/engine-stores.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const DAY = 86_400_000;
const dir = scratchDir('keygate-schedule-');
const claim = { key: 'create-1', fingerprint: createHash('sha256').update('POST /api/keys\n{}').digest('base64url') };

test('a master-key rotation keeps each key’s rotation period and the idempotency records', async (t) => {
  const old = generateMasterKey();
  const data = join(dir, 'rewrap.db');
  const first = await engineOn(t, new SqliteEngineStore(data, new MasterKeyring([old])));
  const { alice } = await tokensFor(first.engine, first.store, ['alice']);
  const { ttag } = await first.engine.atomically(() => first.engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'P30D' }, claim));
  await first.engine.close();

  const fresh = generateMasterKey();
  const rotating = new SqliteEngineStore(data, new MasterKeyring([fresh, old]));
  t.true(rotating.rewrap() > 0);
  await rotating.close();

  const after = await engineOn(t, new SqliteEngineStore(data, new MasterKeyring([fresh])), first.clock);
  const { alice: again } = await tokensFor(after.engine, after.store, ['alice']);
  t.is((await after.engine.keys.view(again!, ttag)).rotationPeriod, 'P30D');
  t.deepEqual(await after.engine.atomically(() => after.engine.keys.generate(again!, { keyLen: 16, rotationPeriod: 'P30D' }, claim)), {
    ttag,
    replayed: true,
  });
  t.deepEqual(await after.store.scheduledKeys(), [ttag]);
});

test('the schedule sweep runs on its timer until stopped, and stops before the store closes', async (t) => {
  const clock = new ManualClock();
  const { engine, store } = await engineOn(t, new MemoryEngineStore(), clock);
  const { alice } = await tokensFor(engine, store, ['alice']);
  const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'P1D' }));
  const lines: string[] = [];
  const sweep = startScheduleSweep(engine, 10, (line) => lines.push(line));
  t.teardown(() => sweep.stop());
  clock.advance(DAY);
  for (let waited = 0; waited < 5_000 && lines.length === 0; waited += 10) await sleep(10);
  t.deepEqual(lines, ['scheduled rotation: 1 key(s) rotated, 0 failed (tried again next sweep)']);
  await sweep.stop();
  clock.advance(DAY);
  await sleep(50);
  t.is((await engine.keys.view(alice!, ttag)).version, 2, 'no sweep after stop');
});
