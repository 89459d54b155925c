import test from 'ava';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';
import { CachedEngineStore } from '../../src/keyserver/store/cached-engine-store.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { PostgresEngineStore } from '../../src/keyserver/store/postgres-engine-store.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { startTestPostgres } from '../_support/postgres.js';
import { skipAll } from '../_support/skip.js';
import { engineStoreContract } from './engine-store.contract.js';
import { engineStoreAliasesContract } from './engine-store-aliases.contract.js';
import { engineStoreDirectoryContract } from './engine-store-directory.contract.js';
import { engineStoreIdempotencyContract } from './engine-store-idempotency.contract.js';
import { engineStoreInventoryContract } from './engine-store-inventory.contract.js';

const keyring = new MasterKeyring([generateMasterKey()]);
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
let schemas = 0;

/** Every store the engine runs on; each test of the contract gets a fresh, empty one. */
const STORES: [name: string, make: () => EngineStore | Promise<EngineStore>][] = [
  ['memory', () => new MemoryEngineStore()],
  ['sqlite', () => new SqliteEngineStore(':memory:', keyring)],
  ['sqlite, cached', () => new CachedEngineStore(new SqliteEngineStore(':memory:', keyring))],
  // A schema of its own per test: the tests of one file run at once on the one server.
  ['postgres', () => PostgresEngineStore.open({ url: postgres.url!, keyring, schema: `contract_${++schemas}` })],
];

for (const [name, make] of STORES) {
  if (name === 'postgres' && postgres.url === undefined) {
    skipAll('postgres engine store contract', postgres.reason!);
    continue;
  }
  engineStoreContract(name, make);
  engineStoreDirectoryContract(name, make);
  engineStoreIdempotencyContract(name, make);
  engineStoreInventoryContract(name, make);
  engineStoreAliasesContract(name, make);
}
