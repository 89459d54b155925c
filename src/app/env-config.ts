import { readFileSync } from 'node:fs';
import { parseCorsOrigins, parsePublicOrigin } from './cors-origins.js';
import { normaliseFingerprint } from '../keyserver/identity/identity-certificate.js';
import {
  ConfigError,
  isCertificatePem,
  isHttpsOrigin,
  parseGatewayConfig,
  principalSeedSchema,
  type GatewayConfig,
  type GatewayConfigInput,
  type PrincipalSeed,
} from './config.js';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the gateway's configuration from `TE_*` environment variables, once, at boot. A bad value
 * throws a ConfigError whose message is one line naming the variable.
 */
export function configFromEnv(env: Env, defaults: { dataDir?: string } = {}): GatewayConfig {
  return parseGatewayConfig({
    host: nonEmpty(env.TE_GATEWAY_HOST) ?? '127.0.0.1',
    port: integer(env, 'TE_GATEWAY_PORT', 0, 65_535) ?? 8080,
    sessionTtlSeconds: integer(env, 'TE_GATEWAY_SESSION_TTL_SECONDS', 1) ?? 43_200,
    logLevel: logLevel(env),
    corsOrigins: parseCorsOrigins(env.TE_GATEWAY_CORS_ORIGINS),
    ...(nonEmpty(env.TE_GATEWAY_PUBLIC_ORIGIN) === undefined ? {} : { publicOrigin: parsePublicOrigin(env.TE_GATEWAY_PUBLIC_ORIGIN!) }),
    replayCacheSize: integer(env, 'TE_GATEWAY_REPLAY_CACHE_SIZE', 1) ?? 100_000,
    keyServer: nonEmpty(env.TE_GATEWAY_KEYSERVER_URL) === undefined ? embeddedFromEnv(env, defaults) : tlsFromEnv(env),
    audit: auditLog(env, nonEmpty(env.TE_GATEWAY_DATA_DIR) ?? defaults.dataDir),
  });
}

type KeyServerInput = NonNullable<GatewayConfigInput['keyServer']>;
const TLS_ONLY = ['TE_GATEWAY_KEYSERVER_CA', 'TE_GATEWAY_KEYSERVER_FINGERPRINT', 'TE_GATEWAY_KEYSERVER_TIMEOUT_MS'] as const;

/** The in-process engine (no TE_GATEWAY_KEYSERVER_URL). */
function embeddedFromEnv(env: Env, defaults: { dataDir?: string }): KeyServerInput {
  const orphan = TLS_ONLY.find((name) => nonEmpty(env[name]) !== undefined);
  if (orphan !== undefined) throw new ConfigError(`${orphan}: applies only with TE_GATEWAY_KEYSERVER_URL, which is not set`);
  const seedPath = nonEmpty(env.TE_KEYSERVER_SEED);
  const tokenTtl = integer(env, 'TE_KEYSERVER_TOKEN_TTL_SECONDS', 1);
  const dataDir = nonEmpty(env.TE_GATEWAY_DATA_DIR) ?? defaults.dataDir;
  return {
    kind: 'embedded',
    ...(seedPath === undefined ? {} : { seed: readSeedFile(seedPath, 'TE_KEYSERVER_SEED') }),
    ...(nonEmpty(env.TE_KEYSERVER_ADMIN_PASSWORD) === undefined ? {} : { adminPassword: env.TE_KEYSERVER_ADMIN_PASSWORD! }),
    ...(tokenTtl === undefined ? {} : { tokenTtlSeconds: tokenTtl }),
    ...(dataDir === undefined ? {} : { dataDir }),
  };
}

/**
 * A key-server daemon over TLS (TE_GATEWAY_KEYSERVER_URL): trusted through exactly one of a CA file
 * or a pinned certificate fingerprint. The embedded engine's TE_KEYSERVER_* settings do not apply.
 */
function tlsFromEnv(env: Env): KeyServerInput {
  const url = nonEmpty(env.TE_GATEWAY_KEYSERVER_URL)!;
  if (!isHttpsOrigin(url)) throw new ConfigError(`TE_GATEWAY_KEYSERVER_URL: expected https://host[:port], got "${url}"`);
  const caPath = nonEmpty(env.TE_GATEWAY_KEYSERVER_CA);
  const pin = nonEmpty(env.TE_GATEWAY_KEYSERVER_FINGERPRINT);
  if (caPath === undefined && pin === undefined) {
    throw new ConfigError('TE_GATEWAY_KEYSERVER_CA or TE_GATEWAY_KEYSERVER_FINGERPRINT: one is required with TE_GATEWAY_KEYSERVER_URL');
  }
  if (caPath !== undefined && pin !== undefined) {
    throw new ConfigError('TE_GATEWAY_KEYSERVER_FINGERPRINT: set it or TE_GATEWAY_KEYSERVER_CA, not both');
  }
  const timeoutMs = integer(env, 'TE_GATEWAY_KEYSERVER_TIMEOUT_MS', 1, 600_000);
  return {
    kind: 'tls',
    url,
    ...(caPath === undefined ? { fingerprint: fingerprintFrom(pin!) } : { ca: readCa(caPath) }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

function fingerprintFrom(value: string): string {
  const fingerprint = normaliseFingerprint(value);
  if (fingerprint === undefined) {
    throw new ConfigError('TE_GATEWAY_KEYSERVER_FINGERPRINT: expected a SHA-256 fingerprint, 64 hex digits (colons allowed)');
  }
  return fingerprint;
}

function readCa(path: string): string {
  const pem = readText(path, 'TE_GATEWAY_KEYSERVER_CA');
  if (!isCertificatePem(pem)) throw new ConfigError(`TE_GATEWAY_KEYSERVER_CA: ${path} holds no PEM certificate`);
  return pem;
}

/**
 * TE_GATEWAY_AUDIT_URL (PostgreSQL) when set; otherwise SQLite in the data directory (`audit.db`);
 * memory only when there is no data directory either. The URL is never echoed: it may hold a password.
 */
function auditLog(env: Env, dataDir: string | undefined): GatewayConfigInput['audit'] {
  const url = nonEmpty(env.TE_GATEWAY_AUDIT_URL);
  if (url !== undefined) {
    if (!isPostgresUrl(url)) {
      throw new ConfigError('TE_GATEWAY_AUDIT_URL: expected a postgres:// or postgresql:// URL (value not shown: it may hold a password)');
    }
    return { kind: 'postgres', url };
  }
  return dataDir === undefined ? { kind: 'memory' } : { kind: 'sqlite', file: join(dataDir, 'audit.db') };
}

function isPostgresUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'postgres:' || protocol === 'postgresql:';
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function integer(env: Env, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevel(env: Env): (typeof LEVELS)[number] {
  const raw = nonEmpty(env.TE_GATEWAY_LOG_LEVEL) ?? 'info';
  if (!(LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`TE_GATEWAY_LOG_LEVEL: expected one of ${LEVELS.join(', ')}, got "${raw}"`);
  }
  return raw as (typeof LEVELS)[number];
}

function readText(path: string, variable: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${variable}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Reads a JSON seed file of principals; `setting` (a variable or a flag) names it in the error. */
export function readSeedFile(path: string, setting: string): PrincipalSeed {
  const text = readText(path, setting);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`${setting}: ${path} is not valid JSON`);
  }
  const result = principalSeedSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`${setting}: ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return result.data;
}
