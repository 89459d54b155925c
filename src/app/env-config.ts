import { readFileSync } from 'node:fs';
import { parseCorsOrigins, parsePublicOrigin } from './cors-origins.js';
import { normaliseFingerprint } from '../keyserver/identity/identity-certificate.js';
import {
  ConfigError,
  isCertificatePem,
  isHttpsOrigin,
  isRedisUrl,
  isSessionKey,
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
    sessionStore: sessionStoreFromEnv(env),
    audit: auditLog(env, nonEmpty(env.TE_GATEWAY_DATA_DIR) ?? defaults.dataDir),
    auditIntegrity: auditIntegrityFromEnv(env, nonEmpty(env.TE_GATEWAY_DATA_DIR) ?? defaults.dataDir),
  });
}

/**
 * The audit chain's settings: TE_GATEWAY_AUDIT_KEY (base64 of 32 bytes) or TE_GATEWAY_AUDIT_KEY_FILE
 * (a file holding it), TE_GATEWAY_AUDIT_SIGNING_KEY_FILE (Ed25519 PKCS#8 PEM),
 * TE_GATEWAY_AUDIT_TRUSTED_KEYS (comma-separated PEM public key files), TE_GATEWAY_AUDIT_WRITER,
 * TE_GATEWAY_AUDIT_CHECKPOINT_EVERY and TE_GATEWAY_AUDIT_CHECKPOINT_SECONDS. A key is never echoed.
 */
function auditIntegrityFromEnv(env: Env, dataDir: string | undefined): NonNullable<GatewayConfigInput['auditIntegrity']> {
  const inline = nonEmpty(env.TE_GATEWAY_AUDIT_KEY);
  const keyFile = nonEmpty(env.TE_GATEWAY_AUDIT_KEY_FILE);
  if (inline !== undefined && keyFile !== undefined) throw new ConfigError('TE_GATEWAY_AUDIT_KEY_FILE: set it or TE_GATEWAY_AUDIT_KEY, not both');
  const setting = keyFile === undefined ? 'TE_GATEWAY_AUDIT_KEY' : 'TE_GATEWAY_AUDIT_KEY_FILE';
  const key = inline ?? (keyFile === undefined ? undefined : readText(keyFile, setting).trim());
  if (key !== undefined && !isSessionKey(key)) throw new ConfigError(`${setting}: expected base64 of 32 bytes (e.g. \`openssl rand -base64 32\`)`);
  const signingFile = nonEmpty(env.TE_GATEWAY_AUDIT_SIGNING_KEY_FILE);
  const trusted =
    nonEmpty(env.TE_GATEWAY_AUDIT_TRUSTED_KEYS)
      ?.split(',')
      .map((path) => path.trim())
      .filter((path) => path !== '') ?? [];
  const writer = nonEmpty(env.TE_GATEWAY_AUDIT_WRITER);
  if (writer !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(writer))
    throw new ConfigError(`TE_GATEWAY_AUDIT_WRITER: expected 1 to 64 of A-Z a-z 0-9 . _ -, got "${writer}"`);
  const every = integer(env, 'TE_GATEWAY_AUDIT_CHECKPOINT_EVERY', 1, 1_000_000);
  const seconds = integer(env, 'TE_GATEWAY_AUDIT_CHECKPOINT_SECONDS', 1, 86_400);
  return {
    ...(writer === undefined ? {} : { writer }),
    ...(key === undefined ? {} : { key }),
    ...(signingFile === undefined ? {} : { signingKey: readText(signingFile, 'TE_GATEWAY_AUDIT_SIGNING_KEY_FILE') }),
    trustedKeys: trusted.map((path) => readText(path, 'TE_GATEWAY_AUDIT_TRUSTED_KEYS')),
    ...(every === undefined ? {} : { checkpointEvery: every }),
    ...(seconds === undefined ? {} : { checkpointSeconds: seconds }),
    ...(dataDir === undefined ? {} : { dataDir }),
  };
}

const REDIS_ONLY = ['TE_GATEWAY_SESSION_KEY', 'TE_GATEWAY_REDIS_TIMEOUT_MS'] as const;

/**
 * Sessions in memory, or in Redis with TE_GATEWAY_REDIS_URL. Redis needs TE_GATEWAY_SESSION_KEY:
 * comma-separated base64 keys of 32 bytes, the first sealing, all opening. Neither the URL (it may
 * hold a password) nor a key is ever echoed in an error.
 */
function sessionStoreFromEnv(env: Env): NonNullable<GatewayConfigInput['sessionStore']> {
  const url = nonEmpty(env.TE_GATEWAY_REDIS_URL);
  if (url === undefined) {
    const orphan = REDIS_ONLY.find((name) => nonEmpty(env[name]) !== undefined);
    if (orphan !== undefined) throw new ConfigError(`${orphan}: applies only with TE_GATEWAY_REDIS_URL, which is not set`);
    return { kind: 'memory' };
  }
  if (!isRedisUrl(url)) throw new ConfigError('TE_GATEWAY_REDIS_URL: expected redis://[user:password@]host[:port][/db] or rediss://...');
  const timeoutMs = integer(env, 'TE_GATEWAY_REDIS_TIMEOUT_MS', 1, 60_000);
  return { kind: 'redis', url, sessionKeys: sessionKeysFrom(env.TE_GATEWAY_SESSION_KEY), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
}

function sessionKeysFrom(raw: string | undefined): string[] {
  const hint = 'comma-separated base64 keys of 32 bytes (e.g. `openssl rand -base64 32`), the first seals';
  if (nonEmpty(raw) === undefined) throw new ConfigError(`TE_GATEWAY_SESSION_KEY: required with TE_GATEWAY_REDIS_URL: ${hint}`);
  const keys = raw!.split(',').map((key) => key.trim());
  const bad = keys.findIndex((key) => !isSessionKey(key));
  if (bad >= 0) throw new ConfigError(`TE_GATEWAY_SESSION_KEY: key ${bad + 1} of ${keys.length} is not base64 of 32 bytes; expected ${hint}`);
  if (new Set(keys.map((key) => Buffer.from(key, 'base64').toString('hex'))).size !== keys.length) {
    throw new ConfigError('TE_GATEWAY_SESSION_KEY: a key is listed twice');
  }
  return keys;
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
