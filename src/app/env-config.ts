import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, parseGatewayConfig, principalSeedSchema, type GatewayConfig, type GatewayConfigInput, type PrincipalSeed } from './config.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the gateway's configuration from `TE_*` environment variables, once, at boot. A bad value
 * throws a ConfigError whose message is one line naming the variable.
 */
export function configFromEnv(env: Env, defaults: { dataDir?: string } = {}): GatewayConfig {
  const seedPath = nonEmpty(env.TE_KEYSERVER_SEED);
  const tokenTtl = integer(env, 'TE_KEYSERVER_TOKEN_TTL_SECONDS', 1);
  const dataDir = nonEmpty(env.TE_GATEWAY_DATA_DIR) ?? defaults.dataDir;
  return parseGatewayConfig({
    host: nonEmpty(env.TE_GATEWAY_HOST) ?? '127.0.0.1',
    port: integer(env, 'TE_GATEWAY_PORT', 0, 65_535) ?? 8080,
    sessionTtlSeconds: integer(env, 'TE_GATEWAY_SESSION_TTL_SECONDS', 1) ?? 43_200,
    logLevel: logLevel(env),
    keyServer: {
      kind: 'embedded',
      ...(seedPath === undefined ? {} : { seed: readSeed(seedPath) }),
      ...(nonEmpty(env.TE_KEYSERVER_ADMIN_PASSWORD) === undefined ? {} : { adminPassword: env.TE_KEYSERVER_ADMIN_PASSWORD! }),
      ...(tokenTtl === undefined ? {} : { tokenTtlSeconds: tokenTtl }),
      ...(dataDir === undefined ? {} : { dataDir }),
    },
    audit: auditLog(env, dataDir),
  });
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

function readSeed(path: string): PrincipalSeed {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`TE_KEYSERVER_SEED: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`TE_KEYSERVER_SEED: ${path} is not valid JSON`);
  }
  const result = principalSeedSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`TE_KEYSERVER_SEED: ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return result.data;
}
