import { join } from 'node:path';
import { EmbeddedKeyServer } from '../adapters/key-server/embedded-key-server.js';
import { KeyServerEngine } from '../keyserver/engine/engine.js';
import { MemoryEngineStore } from '../keyserver/engine/memory-engine-store.js';
import { seedPrincipals } from '../keyserver/engine/seed-principals.js';
import { certificateFingerprint, createIdentityCertificate, type IdentityCertificate } from '../keyserver/identity/identity-certificate.js';
import { loadOrCreateIdentity } from '../keyserver/identity/identity-files.js';
import type { Clock } from '../ports/clock.port.js';
import type { Random } from '../ports/random.port.js';
import type { EmbeddedKeyServerConfig } from './config.js';
import { GATEWAY_VERSION } from './version.js';

export interface EmbeddedKeyServerSetup {
  readonly keyServer: EmbeddedKeyServer;
  /**
   * Set when no seed and no admin password were given: the generated passwords of `admin` and of a
   * second user `guest` (a fresh gateway needs two parties to show a grant). Printed once at boot.
   */
  readonly generatedPasswords: Readonly<Record<string, string>> | undefined;
}

/**
 * Starts the in-process key-server engine: its identity certificate (kept in the data directory when
 * there is one), its principals from the seed, and the bootstrap `admin`.
 */
export async function startEmbeddedKeyServer(config: EmbeddedKeyServerConfig, clock: Clock, random: Random): Promise<EmbeddedKeyServerSetup> {
  const identity = await loadIdentity(config.dataDir);
  const engine = new KeyServerEngine({
    store: new MemoryEngineStore(),
    now: () => clock.now(),
    random,
    tokenTtlMs: config.tokenTtlSeconds === undefined ? undefined : config.tokenTtlSeconds * 1000,
    version: GATEWAY_VERSION,
    config: {
      mode: 'embedded',
      store: 'memory',
      dataDir: config.dataDir,
      tokenTtlSeconds: config.tokenTtlSeconds,
      adminPassword: config.adminPassword,
      seedPrincipals: config.seed?.principals.length ?? 0,
    },
  });
  const generatedPasswords = seedPrincipals(engine, { principals: config.seed?.principals, adminPassword: config.adminPassword }, random);
  const keyServer = new EmbeddedKeyServer(engine, certificateFingerprint(identity.certPem), () => clock.now());
  return { keyServer, generatedPasswords };
}

async function loadIdentity(dataDir: string | undefined): Promise<IdentityCertificate> {
  if (dataDir === undefined) return createIdentityCertificate();
  return loadOrCreateIdentity({ certPath: join(dataDir, 'keyserver-identity.crt'), keyPath: join(dataDir, 'keyserver-identity.key') });
}
