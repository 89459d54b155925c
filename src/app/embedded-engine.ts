import { join } from 'node:path';
import { EmbeddedKeyServer } from '../adapters/key-server/embedded-key-server.js';
import { loadMasterKeys } from '../keyserver/at-rest/master-key-source.js';
import { DEFAULT_DELETION_MAX_DAYS, DEFAULT_DELETION_MIN_DAYS } from '../keyserver/engine/deletion-days.js';
import { KeyServerEngine } from '../keyserver/engine/engine.js';
import type { EngineStore } from '../keyserver/engine/engine-store.port.js';
import { DEFAULT_ROTATION_SWEEP_SECONDS, startDeletionSweep, startScheduleSweep } from '../keyserver/engine/schedule-sweep.js';
import { seedPrincipals } from '../keyserver/engine/seed-principals.js';
import { certificateFingerprint, createIdentityCertificate, type IdentityCertificate } from '../keyserver/identity/identity-certificate.js';
import { loadOrCreateIdentity } from '../keyserver/identity/identity-files.js';
import { CachedEngineStore } from '../keyserver/store/cached-engine-store.js';
import { MemoryEngineStore } from '../keyserver/store/memory-engine-store.js';
import { redactPostgresUrl } from '../keyserver/store/postgres-url.js';
import { SqliteEngineStore } from '../keyserver/store/sqlite-engine-store.js';
import type { Timer } from '../ports/clock.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { Random } from '../ports/random.port.js';
import type { EmbeddedKeyServerConfig } from './config/config.js';
import { GATEWAY_VERSION } from './version.js';

export interface EmbeddedKeyServerSetup {
  readonly keyServer: EmbeddedKeyServer;
  /**
   * Set when no seed and no admin password were given: the generated passwords of `admin` and of a
   * second user `guest` (a fresh gateway needs two parties to show a grant). Printed once at boot.
   */
  readonly generatedPasswords: Readonly<Record<string, string>> | undefined;
}

/** What the embedded engine keeps its state in: PostgreSQL, `keyserver.db` in the data directory, or memory. */
export function embeddedStoreKind(config: EmbeddedKeyServerConfig): 'sqlite' | 'postgres' | 'memory' {
  if (config.store !== undefined) return config.store;
  if (config.postgresUrl !== undefined) return 'postgres';
  return config.dataDir === undefined ? 'memory' : 'sqlite';
}

/** The SQLite file of the embedded engine (`keyserver.db` in the data directory), or undefined for memory and PostgreSQL. */
export function embeddedStorePath(config: EmbeddedKeyServerConfig): string | undefined {
  if (embeddedStoreKind(config) !== 'sqlite' || config.dataDir === undefined) return undefined;
  return join(config.dataDir, 'keyserver.db');
}

export const VOLATILE_WARNING =
  'embedded key server in memory: a restart forgets every principal, key and grant (TE_KEYSERVER_STORE=memory)';

/** Said when a gateway is built without a data directory: an embedder may not know the store is then memory. */
export const NO_DATA_DIR_WARNING =
  'embedded key server in memory (no dataDir): a restart forgets every principal, key and grant; give keyServer.dataDir to keep them';

/** The bootstrap password only creates `admin`; once `admin` exists, its password changes only through the API. */
export const ADMIN_PASSWORD_NOT_APPLIED =
  'TE_KEYSERVER_ADMIN_PASSWORD is not applied: user admin already exists in the store; change it with PUT /api/principals/admin/password';

/**
 * Starts the in-process key-server engine: its identity certificate and its store (the daemon's
 * SQLite store, sealed at rest, when there is a data directory), its principals from the seed, and
 * the bootstrap `admin`.
 */
export async function startEmbeddedKeyServer(
  config: EmbeddedKeyServerConfig,
  clock: Timer,
  random: Random,
  logger?: Logger,
): Promise<EmbeddedKeyServerSetup> {
  const identity = await loadIdentity(config.dataDir);
  const kind = embeddedStoreKind(config);
  const store = await openStore(config, logger);
  const deletionDays = {
    min: config.deletionMinDays ?? DEFAULT_DELETION_MIN_DAYS,
    max: config.deletionMaxDays ?? DEFAULT_DELETION_MAX_DAYS,
  };
  const engine = new KeyServerEngine({
    store,
    now: () => clock.now(),
    random,
    tokenTtlMs: config.tokenTtlSeconds === undefined ? undefined : config.tokenTtlSeconds * 1000,
    maxKeyVersions: config.maxKeyVersions,
    deletionDays,
    version: GATEWAY_VERSION,
    config: {
      mode: 'embedded',
      store: kind,
      dataDir: config.dataDir,
      ...(config.postgresUrl === undefined ? {} : { postgres: redactPostgresUrl(config.postgresUrl) }),
      tokenTtlSeconds: config.tokenTtlSeconds,
      rotationSweepSeconds: config.rotationSweepSeconds ?? DEFAULT_ROTATION_SWEEP_SECONDS,
      deletionDays,
      adminPassword: config.adminPassword,
      seedPrincipals: config.seed?.principals.length ?? 0,
    },
  });
  try {
    if (config.adminPassword !== undefined && (await engine.hasPrincipal('admin'))) logger?.warn(ADMIN_PASSWORD_NOT_APPLIED);
    await engine.prepare();
    const generatedPasswords = await seedPrincipals(
      engine,
      { principals: config.seed?.principals, adminPassword: config.adminPassword },
      random,
    );
    await engine.sweepExpiredTokens();
    // Scheduled key rotation and the end of idempotency records, as a daemon sweeps them.
    const sweepMs = (config.rotationSweepSeconds ?? DEFAULT_ROTATION_SWEEP_SECONDS) * 1000;
    const report = (line: string) => logger?.info(`embedded key server: ${line}`);
    const schedule = startScheduleSweep(engine, sweepMs, report);
    // Scheduled deletion on the gateway's clock, so a test moves it past a key's deletionAt by hand.
    const deletion = startDeletionSweep(engine, sweepMs, (ms) => clock.sleep(ms, { background: true }), report);
    const sweeps = { stop: async () => void (await Promise.all([schedule.stop(), deletion.stop()])) };
    const keyServer = new EmbeddedKeyServer(engine, certificateFingerprint(identity.certPem), () => clock.now(), sweeps);
    return { keyServer, generatedPasswords };
  } catch (error) {
    await engine.close();
    throw error;
  }
}

async function openStore(config: EmbeddedKeyServerConfig, logger: Logger | undefined): Promise<EngineStore> {
  if (embeddedStoreKind(config) === 'postgres') {
    // The configuration requires the master key given with a URL: generated here, it would be this gateway's alone.
    const master = loadMasterKeys({ dataPath: ':memory:', key: config.masterKey, file: config.masterKeyFile });
    // Imported here: an engine on SQLite or in memory (every test's) does not load pg.
    const { PostgresEngineStore } = await import('../keyserver/store/postgres-engine-store.js');
    return PostgresEngineStore.open({
      url: config.postgresUrl!,
      keyring: master.keyring,
      onConnectionError: (error) => logger?.warn(`embedded key server: a PostgreSQL connection failed: ${error.message}`),
    });
  }
  const dataPath = embeddedStorePath(config);
  if (dataPath === undefined) {
    logger?.warn(config.store === 'memory' ? VOLATILE_WARNING : NO_DATA_DIR_WARNING);
    return new MemoryEngineStore();
  }
  const master = loadMasterKeys({ dataPath, key: config.masterKey, file: config.masterKeyFile });
  if (master.warning !== undefined) logger?.warn(master.warning);
  return new CachedEngineStore(new SqliteEngineStore(dataPath, master.keyring));
}

async function loadIdentity(dataDir: string | undefined): Promise<IdentityCertificate> {
  if (dataDir === undefined) return createIdentityCertificate();
  return loadOrCreateIdentity({ certPath: join(dataDir, 'keyserver-identity.crt'), keyPath: join(dataDir, 'keyserver-identity.key') });
}
