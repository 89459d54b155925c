import { MemoryAuditLog } from '../adapters/audit-log/memory-audit-log.js';
import { SqliteAuditLog } from '../adapters/audit-log/sqlite-audit-log.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import type { DaemonProblem } from '../adapters/key-server/daemon-check.js';
import { HttpKeySetSource } from '../adapters/key-set/http-key-set-source.js';
import { PinoLogger } from '../adapters/logger/pino-logger.js';
import { RateLimitedLogger } from '../adapters/logger/rate-limited-logger.js';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';
import { CryptoRandom } from '../adapters/random/crypto-random.js';
import { MemoryReplayCache } from '../adapters/replay-cache/memory-replay-cache.js';
import { MemorySessionStore } from '../adapters/session-store/memory-session-store.js';
import { MemoryThrottleStore } from '../adapters/throttle/memory-throttle-store.js';
import { SqliteWriterLocks } from '../adapters/writer-locks/sqlite-writer-locks.js';
import { AuditChainRegressedError, AuditUnavailableError } from '../domain/audit/audit.errors.js';
import type { AuditChain } from '../domain/audit/audit-chain.js';
import { sealingKeyring } from '../domain/session/seal-token.js';
import { directoryLockFile, storeLockFile } from '../keyserver/at-rest/writer-lock.js';
import { certificateFingerprint } from '../keyserver/identity/identity-certificate.js';
import type { AuditLog } from '../ports/audit-log.port.js';
import type { Clock, Timer } from '../ports/clock.port.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { KeySetSource } from '../ports/key-set-source.port.js';
import type { Logger } from '../ports/logger.port.js';
import { type Metrics, NoMetrics } from '../ports/metrics.port.js';
import type { Random } from '../ports/random.port.js';
import type { ReplayCache } from '../ports/replay-cache.port.js';
import type { SessionStore } from '../ports/session-store.port.js';
import type { ThrottleStore } from '../ports/throttle-store.port.js';
import type { WriterLocks } from '../ports/writer-locks.port.js';
import type { AuditVerifyKeys } from '../use-cases/audit.js';
import { openOrRestartChain } from './audit-chain-restart.js';
import { loadAuditIntegrity } from './audit-keys.js';
import { BootWarningLogger } from './boot-warnings.js';
import { type GatewayConfig, REPLAY_PRINCIPAL_SHARE_KEYS, REPLAY_SHARE_DIVISOR } from './config/config.js';
import { embeddedStorePath, startEmbeddedKeyServer } from './embedded-engine.js';

/** The adapter behind each port the gateway binds: what the configuration chose, or what the caller gave. */
export interface GatewayAdapters {
  readonly clock: Timer;
  readonly random: Random;
  readonly logger: Logger;
  readonly keyServer: KeyServer;
  readonly sessionStore: SessionStore;
  readonly replayCache: ReplayCache;
  /** Failed-login and request-rate counters (Redis: shared by every gateway). */
  readonly throttleStore: ThrottleStore;
  /** An opened audit store (the configured one is opened when the caller gives none). */
  readonly auditLog: AuditLog;
  /** Metrics: prom-client with TE_GATEWAY_METRICS_PORT, else dropped. */
  readonly metrics: Metrics;
  /** The locks on the stores this gateway writes alone (none taken when the caller supplies them). */
  readonly writerLocks: WriterLocks;
  /** Trusted workload issuers' key sets, fetched safely and cached (docs/spec.md §4.24 item 4). */
  readonly keySets: KeySetSource;
}

/**
 * Parts an embedding service or a test may supply instead of the configured ones, and what
 * GET /api/audit/verify trusts (the configured keys when absent).
 */
export type GatewayOverrides = Partial<GatewayAdapters> & { readonly auditVerifyKeys?: AuditVerifyKeys };

/**
 * The one place adapters are chosen from the configuration: the key server (a daemon over TLS, or the
 * embedded engine), the session store and replay cache (Redis, or memory), and the audit log
 * (PostgreSQL, SQLite, or memory). What `overrides` supplies is used as is and not created.
 */
export async function openAdapters(
  config: GatewayConfig,
  overrides: GatewayOverrides = {},
): Promise<
  GatewayAdapters & {
    readonly generatedPasswords: Readonly<Record<string, string>> | undefined;
    readonly auditVerifyKeys: AuditVerifyKeys | undefined;
    /** The warnings logged while the adapters were opened, one line each. */
    readonly bootWarnings: readonly string[];
  }
> {
  const clock = overrides.clock ?? new SystemClock();
  // A burst of identical warnings (a store down, thousands of refusals) is written once per window.
  const gatewayLogger = overrides.logger ?? new RateLimitedLogger(new PinoLogger({ level: config.logLevel }), clock);
  const locks = overrides.writerLocks === undefined ? new SqliteWriterLocks(() => clock.now(), gatewayLogger) : undefined;
  try {
    if (locks !== undefined) holdStores(locks, config, overrides);
    return await openHolding(config, overrides, { clock, gatewayLogger, writerLocks: overrides.writerLocks ?? locks! });
  } catch (error) {
    locks?.close();
    throw error;
  }
}

/**
 * One writer per store (docs/operations.md "One writer per store"), taken before anything in them is
 * read or made: the data directory (audit keys and witness, identities), the SQLite audit database,
 * the embedded engine's store. A store another process holds stops the boot naming that process.
 */
function holdStores(locks: SqliteWriterLocks, config: GatewayConfig, overrides: GatewayOverrides): void {
  const dirs = new Set([config.keyServer.dataDir, config.auditIntegrity.dataDir].filter((dir) => dir !== undefined));
  for (const dir of dirs) locks.hold(directoryLockFile(dir), 'TE_GATEWAY_DATA_DIR', dir);
  if (overrides.auditLog === undefined && config.audit.kind === 'sqlite' && config.audit.file !== ':memory:') {
    locks.hold(storeLockFile(config.audit.file), 'audit database', config.audit.file);
  }
  const store = overrides.keyServer === undefined && config.keyServer.kind === 'embedded' ? embeddedStorePath(config.keyServer) : undefined;
  if (store !== undefined) locks.hold(storeLockFile(store), 'embedded key server', store);
}

/** The adapters once the stores are held. */
async function openHolding(
  config: GatewayConfig,
  overrides: GatewayOverrides,
  { clock, gatewayLogger, writerLocks }: { clock: Timer; gatewayLogger: Logger; writerLocks: WriterLocks },
) {
  const random = overrides.random ?? new CryptoRandom();
  const logger = new BootWarningLogger(gatewayLogger);
  // The audit chain's keys (docs/spec.md §9.3, §9.4): loaded or generated when this gateway opens its own store.
  const integrity = overrides.auditLog === undefined ? loadAuditIntegrity(config.auditIntegrity, logger, () => clock.now()) : undefined;
  const restartDeps = { logger, random, now: () => clock.now() };
  const auditLog =
    overrides.auditLog ??
    (await openOrRestartChain(integrity!, (chain) => openAuditLog(config.audit, logger, chain), restartDeps).catch(refuseVanishedChain));
  const auditVerifyKeys = overrides.auditVerifyKeys ?? integrity?.verifyKeys;
  const { keyServer, generatedPasswords } = overrides.keyServer
    ? { keyServer: overrides.keyServer, generatedPasswords: undefined }
    : await startKeyServer(config.keyServer, clock, random, logger).catch(async (error: unknown) => {
        await auditLog.close();
        throw error;
      });
  const { sessionStore, replayCache, throttleStore } = await openSessionState(config, { clock, random, logger }, overrides);
  // What the audit keys generated is written only now that every store opened (docs/operations.md "Boot sequence").
  try {
    integrity?.keep();
  } catch (error) {
    await Promise.allSettled([auditLog.close(), keyServer.close(), sessionStore.close(), replayCache.close(), throttleStore.close()]);
    throw error;
  }
  const metrics = overrides.metrics ?? chooseMetrics(config, sessionStore, replayCache);
  const bootWarnings = logger.booted();
  const opened = {
    clock,
    random,
    logger: gatewayLogger,
    generatedPasswords,
    sessionStore,
    replayCache,
    throttleStore,
    auditVerifyKeys,
    bootWarnings,
    writerLocks,
    keySets: overrides.keySets ?? openKeySets(config, clock),
  };
  // The key server and the audit log are metered where the container observes them
  // (src/adapters/key-server/observed-key-server.ts, src/adapters/audit-log/observed-audit-log.ts).
  return { ...opened, auditLog, keyServer, metrics };
}

/** The key sets of trusted workload issuers, over HTTPS with the operator's limits (docs/spec.md §4.24 item 4). */
function openKeySets(config: GatewayConfig, clock: Timer): KeySetSource {
  return new HttpKeySetSource(clock, {
    plainHttpHosts: new Set(config.jwksPlainHttpHosts),
    ...(config.jwksCa === undefined ? {} : { ca: config.jwksCa }),
    timeoutMs: config.jwksTimeoutMs,
    maxBytes: 256 * 1024,
    maxKeys: 100,
    cacheMs: config.jwksCacheSeconds * 1000,
    coolDownMs: 30_000,
  });
}

/** prom-client metrics when a metrics port is configured (their gauges read the two stores at scrape time). */
function chooseMetrics(config: GatewayConfig, sessionStore: SessionStore, replayCache: ReplayCache): Metrics {
  if (config.metricsPort === undefined) return new NoMetrics();
  return new PromMetrics({
    replayCacheEntries: () => replayCache.size(),
    replayCacheCapacity: config.replayCacheSize,
    liveSessions: () => sessionStore.count(),
  });
}

/**
 * The configured key server: a daemon over TLS when a URL is set, else the embedded engine. The TLS
 * client and the Redis and PostgreSQL adapters below are imported where they are chosen: a gateway
 * configured without them (a test's, most of all) does not load ioredis, pg or the TLS client.
 */
async function startKeyServer(
  config: GatewayConfig['keyServer'],
  clock: Timer,
  random: Random,
  logger: Logger,
): Promise<{ keyServer: KeyServer; generatedPasswords: Readonly<Record<string, string>> | undefined }> {
  if (config.kind === 'tls') {
    const [{ gatewayClientIdentity }, { TlsKeyServer }] = await Promise.all([
      import('./gateway-client-identity.js'),
      import('../adapters/key-server/tls-key-server.js'),
    ]);
    const client = await gatewayClientIdentity(config);
    logger.info('key-server client certificate', { fingerprint: certificateFingerprint(client.certPem) });
    // Each daemon is checked once: one that cannot be used is said before the gateway listens (naming it
    // and why), and the boot goes on with pins, since daemons may come later.
    const warn = (problem: DaemonProblem) => logger.warn(`key-server daemon ${problem.url}: ${problem.cause}`);
    const keyServer = await TlsKeyServer.start({ ...config, clientCert: client.certPem, clientKey: client.keyPem, clock }, random, warn);
    return { keyServer, generatedPasswords: undefined };
  }
  return startEmbeddedKeyServer(config, clock, random, logger);
}

/**
 * Sessions and the replay cache in this process's memory, or with `sessionStore.kind` redis in Redis,
 * connected (each waits at most its timeout; a Redis down at start is retried in the background and
 * reported by /health).
 */
async function openSessionState(
  config: GatewayConfig,
  deps: { clock: Clock; random: Random; logger: Logger },
  supplied: GatewayOverrides,
): Promise<{ sessionStore: SessionStore; replayCache: ReplayCache; throttleStore: ThrottleStore }> {
  const settings = config.sessionStore;
  const bounds = replayBounds(config);
  if (settings.kind !== 'redis') {
    return {
      sessionStore: supplied.sessionStore ?? new MemorySessionStore(deps.clock),
      replayCache: supplied.replayCache ?? new MemoryReplayCache(deps.clock, bounds),
      throttleStore: supplied.throttleStore ?? new MemoryThrottleStore(),
    };
  }
  const common = {
    url: settings.url,
    timeoutMs: settings.timeoutMs,
    keyPrefix: settings.keyPrefix,
    clock: deps.clock,
    logger: deps.logger,
  };
  const keyring = sealingKeyring(settings.sessionKeys.map((key) => Buffer.from(key, 'base64')));
  const [{ RedisSessionStore }, { RedisReplayCache }, { RedisThrottleStore }] = await Promise.all([
    import('../adapters/session-store/redis-session-store.js'),
    import('../adapters/replay-cache/redis-replay-cache.js'),
    import('../adapters/throttle/redis-throttle-store.js'),
  ]);
  const [sessionStore, replayCache, throttleStore] = await Promise.all([
    supplied.sessionStore ?? RedisSessionStore.connect({ ...common, keyring, random: deps.random }),
    supplied.replayCache ?? RedisReplayCache.connect({ ...common, ...bounds, keyring }),
    supplied.throttleStore ??
      RedisThrottleStore.connect({
        url: settings.url,
        timeoutMs: settings.timeoutMs,
        keyPrefix: settings.keyPrefix,
        keyring,
        logger: deps.logger,
      }),
  ]);
  return { sessionStore, replayCache, throttleStore };
}

/**
 * Opens the configured audit store, creating or migrating its schema, its entries sealed on `chain`
 * (unchained without one: benchmarks and tests only). Throws AuditUnavailableError when it cannot:
 * the gateway does not start without the store its sensitive operations need.
 */
export async function openAuditLog(config: GatewayConfig['audit'], logger: Logger, chain?: AuditChain): Promise<AuditLog> {
  switch (config.kind) {
    case 'memory':
      return new MemoryAuditLog(chain === undefined ? {} : { chain });
    case 'sqlite':
      return SqliteAuditLog.open({ file: config.file, ...(chain === undefined ? {} : { chain }) });
    case 'postgres': {
      const { PostgresAuditLog } = await import('../adapters/audit-log/postgres-audit-log.js');
      return PostgresAuditLog.open({
        url: config.url,
        schema: config.schema,
        timeoutMs: config.timeoutMs,
        connectTimeoutMs: config.connectTimeoutMs,
        statementTimeoutMs: config.statementTimeoutMs,
        onConnectionError: (error) => logger.warn('audit database connection lost', { cause: `${error.name}: ${error.message}` }),
        ...(chain === undefined ? {} : { chain }),
      });
    }
  }
}

/**
 * A store that no longer holds the chain this gateway's witness saw (deleted, replaced or truncated)
 * stops the boot with what was found and the way on: a silent new chain would hide the loss.
 */
function refuseVanishedChain(error: unknown): never {
  if (!(error instanceof AuditChainRegressedError)) throw error;
  throw new AuditUnavailableError(
    `${error.message}. The audit store does not hold the chain this gateway wrote before (its head is kept in the data directory): keep the store as evidence, and start with --new-audit-chain to begin a new chain (a new writer: verify keeps reporting what this one lost)`,
  );
}

/**
 * The replay cache's bound, each key's share of it (docs/spec.md §5.4: unset, 1/20 of the bound) and each
 * principal's share over all its keys (unset, four key shares); no share is more than the bound, and a
 * principal's is never less than a key's.
 */
function replayBounds(config: GatewayConfig): { maxEntries: number; maxEntriesPerKey: number; maxEntriesPerPrincipal: number } {
  const maxEntries = config.replayCacheSize;
  const keyShare = Math.min(config.replayCacheKeyShare ?? Math.ceil(maxEntries / REPLAY_SHARE_DIVISOR), maxEntries);
  const principalShare = config.replayCachePrincipalShare ?? keyShare * REPLAY_PRINCIPAL_SHARE_KEYS;
  return { maxEntries, maxEntriesPerKey: keyShare, maxEntriesPerPrincipal: Math.min(Math.max(principalShare, keyShare), maxEntries) };
}
