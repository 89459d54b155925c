import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { RandomSource } from '../../crypto/random-source.js';
import { loadMasterKeys } from '../at-rest/master-key-source.js';
import type { MasterKeyring } from '../at-rest/master-keys.js';
import { storeLockFile, WriterLock } from '../at-rest/writer-lock.js';
import { DEFAULT_DELETION_DAYS } from '../engine/deletion-days.js';
import { KeyServerEngine } from '../engine/engine.js';
import type { EngineStore } from '../engine/engine-store.port.js';
import { DEFAULT_MAX_KEY_VERSIONS } from '../engine/key-versions.js';
import { DEFAULT_ROTATION_SWEEP_SECONDS, machineWait, startDeletionSweep, startScheduleSweep } from '../engine/schedule-sweep.js';
import { seedPrincipals } from '../engine/seed-principals.js';
import { certificateFingerprint, createIdentityCertificate, type IdentityCertificate } from '../identity/identity-certificate.js';
import { loadOrCreateIdentity, readIdentity } from '../identity/identity-files.js';
import { ALPN } from '../protocol/keyserver-protocol.js';
import { CachedEngineStore } from '../store/cached-engine-store.js';
import { PostgresEngineStore } from '../store/postgres-engine-store.js';
import { redactPostgresUrl } from '../store/postgres-url.js';
import { SqliteEngineStore } from '../store/sqlite-engine-store.js';
import { KEY_SERVER_VERSION } from '../version.js';
import { clientTrustOptions, guardConnections } from './client-trust.js';
import { serveFrames } from './daemon-frames.js';
import { createDaemonAnswerer, createDaemonHandler, type DaemonLog } from './daemon-handler.js';
import type { DaemonOptions } from './daemon-options.js';

/** A running key-server daemon. */
export interface KeyServerDaemon {
  readonly url: string;
  readonly port: number;
  /** Lower-case hex SHA-256 of the certificate's DER: what a gateway pins. */
  readonly fingerprint: string;
  /** The generated passwords of `admin` and `guest` on a first start without seed or admin password. */
  readonly generatedPasswords: Readonly<Record<string, string>> | undefined;
  /** Stops listening, ends open connections and closes the data file. */
  close(): Promise<void>;
}

const SWEEP_INTERVAL_MS = 10 * 60_000;
/** How often the daemon looks whether its writer lock file is still the one it holds. */
const LOCK_CHECK_INTERVAL_MS = 5_000;
/** As HTTP/1.1's `requestTimeout`: a framed connection with no complete request this long after opening or its last answer is closed. */
const FRAME_REQUEST_TIMEOUT_MS = 15_000;
const random: RandomSource = { bytes: (length) => randomBytes(length) };

/**
 * Starts `keygate keyserver`: the engine on its SQLite file or in PostgreSQL, served over TLS 1.3 only. Seeding again
 * on a restart keeps what exists; tokens past their lifetime are swept at start and periodically.
 */
export async function startKeyServerDaemon(options: DaemonOptions, log: DaemonLog): Promise<KeyServerDaemon> {
  // Taken before anything beside the store is read or made (identity, master key file): one writer per
  // SQLite store. A store in PostgreSQL is shared by several daemons, each in its own transactions.
  const sqliteFile = options.postgresUrl === undefined && options.dataPath !== ':memory:';
  const lock = sqliteFile ? WriterLock.acquire(storeLockFile(options.dataPath), '--data', options.dataPath) : undefined;
  try {
    return await startHolding(options, log, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function startHolding(options: DaemonOptions, log: DaemonLog, lock: WriterLock | undefined): Promise<KeyServerDaemon> {
  const identity = await daemonIdentity(options);
  const master = loadMasterKeys({ dataPath: options.dataPath, key: options.masterKey, file: options.masterKeyFile });
  if (master.warning !== undefined) log(`keygate keyserver: warning: ${master.warning}`);
  const engine = new KeyServerEngine({
    store: await openStore(options, master.keyring, log),
    now: () => Date.now(),
    random,
    tokenTtlMs: options.tokenTtlSeconds === undefined ? undefined : options.tokenTtlSeconds * 1000,
    maxKeyVersions: options.maxKeyVersions,
    deletionDays: options.deletionDays,
    version: KEY_SERVER_VERSION,
    // Shown by operation 44 with secrets redacted.
    config: {
      mode: 'daemon',
      ...(options.postgresUrl === undefined
        ? { store: options.dataPath === ':memory:' ? 'memory' : 'sqlite', dataPath: options.dataPath }
        : { store: 'postgres', postgres: redactPostgresUrl(options.postgresUrl) }),
      host: options.host,
      port: options.port,
      tokenTtlSeconds: options.tokenTtlSeconds,
      rotationSweepSeconds: options.rotationSweepSeconds ?? DEFAULT_ROTATION_SWEEP_SECONDS,
      maxKeyVersions: options.maxKeyVersions ?? DEFAULT_MAX_KEY_VERSIONS,
      deletionDays: options.deletionDays ?? DEFAULT_DELETION_DAYS,
      adminPassword: options.adminPassword,
      masterKeyId: master.keyring.current.id,
      seedPrincipals: options.seed?.principals.length ?? 0,
      clientCas: options.clientTrust.cas.length,
      clientFingerprints: options.clientTrust.fingerprints,
    },
  });
  let server: Server | undefined;
  const answer = createDaemonAnswerer(engine, log);
  try {
    await engine.prepare();
    // The bootstrap password only creates admin: once admin exists, its password changes through the API.
    if (options.adminPassword !== undefined && (await engine.hasPrincipal('admin'))) {
      log(
        'keygate keyserver: warning: TE_KEYSERVER_ADMIN_PASSWORD is not applied: user admin already exists in the store; change its password through the API',
      );
    }
    const generatedPasswords = await seedPrincipals(
      engine,
      { principals: options.seed?.principals, adminPassword: options.adminPassword },
      random,
    );
    await engine.sweepExpiredTokens();
    server = createServer(
      {
        cert: identity.certPem,
        key: identity.keyPem,
        minVersion: 'TLSv1.3',
        ALPNProtocols: [ALPN.framed, ALPN.http],
        handshakeTimeout: 10_000,
        requestTimeout: 15_000,
        headersTimeout: 10_000,
        ...clientTrustOptions(options.clientTrust),
      },
      createDaemonHandler(answer),
    );
    const framed = serveFramedConnections(server, (socket) =>
      serveFrames(socket, answer, log, { requestTimeoutMs: FRAME_REQUEST_TIMEOUT_MS }),
    );
    guardConnections(server, options.clientTrust, log);
    const address = await listen(server, options.port, options.host);
    const sweeper = setInterval(() => {
      engine
        .sweepExpiredTokens()
        .catch((error: unknown) =>
          log(`keygate keyserver: expired tokens not swept: ${error instanceof Error ? error.message : String(error)}`),
        );
    }, SWEEP_INTERVAL_MS);
    sweeper.unref();
    const sweepSeconds = options.rotationSweepSeconds ?? DEFAULT_ROTATION_SWEEP_SECONDS;
    const report = (line: string) => log(`keygate keyserver: ${line}`);
    const schedule = startScheduleSweep(engine, sweepSeconds * 1000, report);
    // Daemons sharing a PostgreSQL store destroy each due key once between them (deletion-sweep.ts).
    const deletion = startDeletionSweep(engine, sweepSeconds * 1000, machineWait, report);
    const lockCheck = lock === undefined ? undefined : watchWriterLock(lock, log);
    const running = server;
    return {
      url: `https://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
      port: address.port,
      fingerprint: certificateFingerprint(identity.certPem),
      generatedPasswords,
      async close() {
        clearInterval(sweeper);
        await schedule.stop();
        await deletion.stop();
        clearInterval(lockCheck);
        await new Promise<void>((done) => {
          running.close(() => done());
          running.closeAllConnections();
          for (const socket of framed) socket.destroy();
        });
        await engine.close();
        lock?.release();
      },
    };
  } catch (error) {
    server?.close();
    await engine.close();
    throw error;
  }
}

/** Logs once, as an error, when the store's writer lock file is removed or replaced under the daemon. */
function watchWriterLock(lock: WriterLock, log: DaemonLog): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    const conflict = lock.conflict();
    if (conflict === undefined) return;
    log(`keygate keyserver: error: writer conflict: ${conflict}`);
    clearInterval(timer);
  }, LOCK_CHECK_INTERVAL_MS);
  timer.unref();
  return timer;
}

/**
 * The engine's store: PostgreSQL, shared with other daemons and read afresh by every operation (no
 * read cache: another daemon's change must be seen on the next operation); or the SQLite file behind
 * its read cache, which notices another connection's commit.
 */
async function openStore(options: DaemonOptions, keyring: MasterKeyring, log: DaemonLog): Promise<EngineStore> {
  if (options.postgresUrl === undefined) return new CachedEngineStore(new SqliteEngineStore(options.dataPath, keyring));
  return PostgresEngineStore.open({
    url: options.postgresUrl,
    keyring,
    onConnectionError: (error) => log(`keygate keyserver: warning: a PostgreSQL connection failed: ${error.message}`),
  });
}

/**
 * Serves the connections that chose the framed transport by ALPN with `serve`, and hands every other
 * one to the HTTPS server's own listener (HTTP/1.1). Answers the framed connections still open.
 */
function serveFramedConnections(server: Server, serve: (socket: TLSSocket) => void): ReadonlySet<TLSSocket> {
  const open = new Set<TLSSocket>();
  const http = server.listeners('secureConnection') as ((socket: TLSSocket) => void)[];
  server.removeAllListeners('secureConnection');
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.destroyed) return;
    if (socket.alpnProtocol !== ALPN.framed) {
      for (const listener of http) listener.call(server, socket);
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    serve(socket);
  });
  return open;
}

/** The given certificate, or the one kept beside the data file (made on first start), or, for `:memory:`, a fresh one. */
async function daemonIdentity(options: DaemonOptions): Promise<IdentityCertificate> {
  if (options.identity !== undefined) return readIdentity(options.identity);
  const hosts = [...new Set(['localhost', '127.0.0.1', '::1', hostname(), ...(isWildcard(options.host) ? [] : [options.host])])];
  if (options.dataPath === ':memory:') return createIdentityCertificate({ hosts });
  const stem = join(dirname(options.dataPath), basename(options.dataPath, extname(options.dataPath)));
  return loadOrCreateIdentity({ certPath: `${stem}.identity.crt`, keyPath: `${stem}.identity.key` }, { hosts });
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.removeListener('error', fail);
      ready(server.address() as AddressInfo);
    });
  });
}
