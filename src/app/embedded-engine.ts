import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedKeyServer } from '../adapters/key-server/embedded-key-server.js';
import { KeyServerEngine } from '../keyserver/engine/engine.js';
import { MemoryEngineStore } from '../keyserver/engine/memory-engine-store.js';
import {
  certificateFingerprint,
  createIdentityCertificate,
  type IdentityCertificate,
} from '../keyserver/identity/identity-certificate.js';
import type { Clock } from '../ports/clock.port.js';
import type { Random } from '../ports/random.port.js';
import type { GatewayConfig } from './config.js';
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
export async function startEmbeddedKeyServer(
  config: GatewayConfig['keyServer'],
  clock: Clock,
  random: Random,
): Promise<EmbeddedKeyServerSetup> {
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
  for (const principal of config.seed?.principals ?? []) engine.createPrincipal(principal);
  let generatedPasswords: Record<string, string> | undefined;
  let adminPassword = config.adminPassword;
  if (adminPassword === undefined && config.seed === undefined) {
    generatedPasswords = { admin: generatePassword(random), guest: generatePassword(random) };
    adminPassword = generatedPasswords.admin;
    engine.createPrincipal({ name: 'guest', kind: 'user', password: generatedPasswords.guest, roles: ['user'] });
  }
  if (adminPassword !== undefined && !engine.hasPrincipal('admin')) {
    engine.createPrincipal({ name: 'admin', kind: 'user', password: adminPassword, roles: ['admin'] });
  }
  const keyServer = new EmbeddedKeyServer(engine, certificateFingerprint(identity.certPem), random);
  return { keyServer, generatedPasswords };
}

function generatePassword(random: Random): string {
  return Buffer.from(random.bytes(18)).toString('base64url');
}

async function loadIdentity(dataDir: string | undefined): Promise<IdentityCertificate> {
  if (dataDir === undefined) return createIdentityCertificate();
  const certPath = join(dataDir, 'keyserver-identity.crt');
  const keyPath = join(dataDir, 'keyserver-identity.key');
  if (existsSync(certPath) && existsSync(keyPath)) {
    return { certPem: readFileSync(certPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
  }
  const identity = await createIdentityCertificate();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, identity.keyPem, { mode: 0o600 });
  writeFileSync(certPath, identity.certPem, { mode: 0o644 });
  return identity;
}
