import type { ExecutionContext } from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';
import { CachedEngineStore } from '../../src/keyserver/store/cached-engine-store.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { PostgresEngineStore } from '../../src/keyserver/store/postgres-engine-store.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import type { TestPostgres } from './postgres.js';
import { SeededRandom } from './seeded-random.js';

export type StoreKind = 'memory' | 'sqlite' | 'postgres';
export const STORE_KINDS: readonly StoreKind[] = ['memory', 'sqlite', 'postgres'];

const keyring = new MasterKeyring([generateMasterKey()]);
let schemas = 0;

/** A fresh store of one kind; PostgreSQL in a schema of its own (`schema` to share one between engines). */
export async function openStore(kind: StoreKind, postgres: TestPostgres, schema?: string): Promise<EngineStore> {
  if (kind === 'memory') return new MemoryEngineStore();
  if (kind === 'sqlite') return new CachedEngineStore(new SqliteEngineStore(':memory:', keyring));
  return await PostgresEngineStore.open({ url: postgres.url!, keyring, schema: schema ?? `engine_${process.pid}_${++schemas}` });
}

/** A fresh PostgreSQL schema name, for engines that share one store. */
export function freshSchema(): string {
  return `shared_${process.pid}_${++schemas}`;
}

/** An engine on `store` driven by a ManualClock, closed at the test's end. */
export async function engineOn(
  t: ExecutionContext,
  store: EngineStore,
  clock = new ManualClock(),
  options: { maxKeyVersions?: number } = {},
) {
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new CryptoRandom(), ...options });
  t.teardown(() => engine.close());
  await engine.prepare();
  return { engine, store, clock };
}

/** Creates the users (or finds them, on a shared store) and issues each a token. */
export async function tokensFor(engine: KeyServerEngine, store: EngineStore, names: readonly string[]): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const name of names) {
    if (!(await engine.hasPrincipal(name))) await engine.createPrincipal({ name, kind: 'user' });
    tokens[name] = (await engine.issueToken((await store.principalByName(name))!)).token;
  }
  return tokens;
}

/** The error code an operation fails with, or undefined when it succeeds. */
export async function codeOf(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    // An error without a code is a failure too, never taken for success.
    return (error as { code?: string }).code ?? 'NO_CODE';
  }
}

/** An engine on a store in memory, by a clock of its own, with the user alice and her token: where the engine's rule tests start. */
export async function aliceOnMemory() {
  const store = new MemoryEngineStore();
  const clock = new ManualClock(1_700_000_000_000);
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new SeededRandom() });
  await engine.createPrincipal({ name: 'alice', kind: 'user' });
  const alice = (await store.principalByName('alice'))!;
  return { engine, store, clock, alice, token: (await engine.issueToken(alice)).token };
}
