import { randomBytes } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import type { GatewayOverrides } from '../../src/app/adapters.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import type { KeyServer } from '../../src/ports/key-server.port.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from './gateway.js';
import { startTestPostgres } from './postgres.js';
import { createDatabase } from './postgres-daemons.js';
import { scratchDir } from './scratch-dirs.js';

/** The embedded key server's three stores, as a test table runs over them. */
export const KEY_SERVER_STORES = ['memory', 'sqlite', 'postgres'] as const;
export type KeyServerStore = (typeof KEY_SERVER_STORES)[number];

let postgres: ReturnType<typeof startTestPostgres> | undefined;

/** Why a store's tests are skipped (PostgreSQL may be missing), or undefined when it can run. */
export function storeSkipReason(store: KeyServerStore): string | undefined {
  if (store !== 'postgres') return undefined;
  postgres ??= startTestPostgres();
  return postgres.reason;
}

/** The embedded key server's configuration on `store`: a fresh directory, a fresh PostgreSQL database. */
async function storeConfig(store: KeyServerStore) {
  const base = { kind: 'embedded' as const, seed: SEED, adminPassword: PASSWORDS.admin };
  if (store === 'memory') return base;
  const dataDir = scratchDir(`keygate-${store}-`);
  if (store === 'sqlite') return { ...base, dataDir, store };
  const url = postgres?.url;
  if (url === undefined) throw new Error(`no PostgreSQL: ${postgres?.reason}`);
  const postgresUrl = await createDatabase(url);
  return { ...base, dataDir, store, postgresUrl, masterKey: randomBytes(32).toString('base64') };
}

/**
 * A gateway whose embedded key server keeps its state in `store`: memory, a SQLite file in a fresh
 * directory, or a fresh PostgreSQL database. Its teardown is registered by `startGateway`; `overrides`
 * as `startGateway` takes them (a faulty audit log).
 */
export async function startStoreGateway(
  t: ExecutionContext,
  store: KeyServerStore,
  overrides: GatewayOverrides = {},
): Promise<TestGateway> {
  return startGateway(t, { keyServer: await storeConfig(store) }, overrides);
}

/**
 * As `startStoreGateway`, with the embedded key server behind `wrap` (a fault injector of
 * test/_support): the gateway closes it with itself.
 */
export async function startWrappedStoreGateway(
  t: ExecutionContext,
  store: KeyServerStore,
  wrap: (inner: KeyServer) => KeyServer,
  overrides: GatewayOverrides = {},
): Promise<TestGateway> {
  const config = await storeConfig(store);
  const clock = new ManualClock(Date.now());
  const { keyServer } = await startEmbeddedKeyServer(config, clock, new CryptoRandom());
  return startGateway(t, { keyServer: config }, { ...overrides, clock, keyServer: wrap(keyServer) });
}

/**
 * Two gateways, each with an embedded key server of its own, on one PostgreSQL key store (a fresh
 * database of the cluster at `clusterUrl`, answered as `postgresUrl`) under one master key: what several gateways share in a
 * scale-out deployment. Both stop at the test's end.
 */
export async function startGatewaysSharingPostgres(t: ExecutionContext, clusterUrl: string, prefix: string) {
  const postgresUrl = await createDatabase(clusterUrl);
  const masterKey = randomBytes(32).toString('base64');
  const keyServer = (suffix: string) => ({
    kind: 'embedded' as const,
    seed: SEED,
    adminPassword: PASSWORDS.admin,
    dataDir: scratchDir(`${prefix}${suffix}-`),
    store: 'postgres' as const,
    postgresUrl,
    masterKey,
  });
  return {
    first: await startGateway(t, { keyServer: keyServer('a') }),
    second: await startGateway(t, { keyServer: keyServer('b') }),
    postgresUrl,
  };
}
