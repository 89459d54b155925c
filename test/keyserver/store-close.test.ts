import test from 'ava';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { CachedEngineStore } from '../../src/keyserver/store/cached-engine-store.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { contextsLeftBy, useThenClose } from '../_support/async-contexts.js';

const keyring = new MasterKeyring([generateMasterKey()]);

// The PostgreSQL store's case is in postgres-engine-store.test.ts, beside its server.
for (const [name, open] of [
  ['memory', () => new MemoryEngineStore()],
  ['SQLite behind its cache', () => new CachedEngineStore(new SqliteEngineStore(':memory:', keyring))],
] as const) {
  test.serial(`a ${name} store, once closed, leaves no asynchronous context of its own enabled`, async (t) => {
    const left = await contextsLeftBy(() => useThenClose(open()));
    t.true(left.ran > 0, 'the store runs its units in a context');
    t.is(left.stillEnabled, 0);
  });
}
