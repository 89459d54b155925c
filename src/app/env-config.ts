import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseCorsOrigins, parsePublicOrigin } from './cors-origins.js';
import { ConfigError, parseGatewayConfig, type ConfigIssue, type GatewayConfig, type GatewayConfigInput } from './config.js';
import { CONFIG_VARIABLES, findVariable, type ConfigVariable, type VariableName, type VariableType } from './config-variables.js';
import { readSeedFile } from '../keyserver/seed-file.js';
import { withFileVariables } from './env-files.js';

type Env = Readonly<Record<string, string | undefined>>;

/** How each type of variable turns its text into the value the configuration schema validates. */
const DECODERS = {
  text: z.string(),
  integer: z.string().transform((raw, ctx) => (/^\d+$/.test(raw) ? Number(raw) : (ctx.addIssue({ code: 'custom', message: 'expected an integer' }), z.NEVER))),
  list: z.string().transform((raw) => raw.split(',').map((entry) => entry.trim())),
  origins: z.string().transform((raw) => parseCorsOrigins(raw)),
  origin: z.string().transform((raw) => parsePublicOrigin(raw)),
  file: z.string(),
} satisfies Record<VariableType, z.ZodType<unknown, string>>;

type Values = { -readonly [V in (typeof CONFIG_VARIABLES)[number] as V['name']]?: z.output<(typeof DECODERS)[V['type']]> };

/** Blank is unset: a deployment template may list a variable with no value. */
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The environment's schema, from the table: one optional decoded entry per variable. */
const envSchema = z.object(
  Object.fromEntries(CONFIG_VARIABLES.map((variable) => [variable.name, z.preprocess(blankIsUnset, DECODERS[variable.type].optional())])),
);

/**
 * Reads the gateway's configuration from `TE_*` environment variables (CONFIG_VARIABLES), once, at
 * boot, and validates it with the configuration schema. A bad value throws a ConfigError whose
 * message is one line naming the variable; a secret's value is never echoed.
 */
export function configFromEnv(given: Env, defaults: { dataDir?: string } = {}): GatewayConfig {
  const env = withFileVariables(given);
  const values = readVariables(withoutEmbeddedWhenRemote(env));
  checkCompanions(values);
  const input = configInput(values, values.TE_GATEWAY_DATA_DIR ?? defaults.dataDir);
  return parseGatewayConfig(input, (issue) => describeIssue(issue, input, env));
}

/** With a daemon URL the embedded engine's TE_KEYSERVER_* settings do not apply and are not read. */
function withoutEmbeddedWhenRemote(env: Env): Env {
  if (blankIsUnset(env.TE_GATEWAY_KEYSERVER_URL) === undefined) return env;
  const embedded = new Set<string>(CONFIG_VARIABLES.filter((variable) => variable.group === 'embedded').map((variable) => variable.name));
  return Object.fromEntries(Object.entries(env).filter(([name]) => !embedded.has(name)));
}

function readVariables(env: Env): Values {
  const result = envSchema.safeParse(env);
  if (result.success) return result.data as unknown as Values;
  const issue = result.error.issues[0]!;
  const variable = findVariable(String(issue.path[0]))!;
  throw new ConfigError(`${variable.name}: ${issue.message}${shown(variable, env[variable.name])}`);
}

/** The table's pairings: a variable that applies only with another, or is required with it. */
function checkCompanions(values: Values): void {
  const set = (name: string | undefined) => name !== undefined && values[name as VariableName] !== undefined;
  for (const variable of CONFIG_VARIABLES as readonly ConfigVariable[]) {
    if (variable.onlyWith !== undefined && set(variable.name) && !set(variable.onlyWith)) {
      throw new ConfigError(`${variable.name}: applies only with ${variable.onlyWith}, which is not set`);
    }
    if (variable.requiredWith !== undefined && set(variable.requiredWith) && !set(variable.name)) {
      throw new ConfigError(`${variable.name}: required with ${variable.requiredWith}: ${variable.meaning.replace(/`/g, '')}`);
    }
    if (variable.notWith !== undefined && set(variable.name) && set(variable.notWith)) {
      throw new ConfigError(`${variable.name}: set it or ${variable.notWith}, not both`);
    }
  }
}

/** Places each decoded value at its field; the key server, session store and audit log kinds follow from what is set. */
function configInput(values: Values, dataDir: string | undefined): GatewayConfigInput {
  const url = values.TE_GATEWAY_KEYSERVER_URL;
  const ca = values.TE_GATEWAY_KEYSERVER_CA;
  const seed = values.TE_KEYSERVER_SEED;
  return {
    host: values.TE_GATEWAY_HOST,
    port: values.TE_GATEWAY_PORT,
    sessionTtlSeconds: values.TE_GATEWAY_SESSION_TTL_SECONDS,
    logLevel: values.TE_GATEWAY_LOG_LEVEL as GatewayConfigInput['logLevel'],
    corsOrigins: values.TE_GATEWAY_CORS_ORIGINS,
    publicOrigin: values.TE_GATEWAY_PUBLIC_ORIGIN,
    replayCacheSize: values.TE_GATEWAY_REPLAY_CACHE_SIZE,
    replayCacheKeyShare: values.TE_GATEWAY_REPLAY_CACHE_KEY_SHARE,
    replayCachePrincipalShare: values.TE_GATEWAY_REPLAY_CACHE_PRINCIPAL_SHARE,
    sessionMintsPerMinute: values.TE_GATEWAY_SESSION_MINTS_PER_MINUTE,
    http: {
      headersTimeoutMs: values.TE_GATEWAY_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: values.TE_GATEWAY_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: values.TE_GATEWAY_KEEPALIVE_TIMEOUT_MS,
      maxConnections: values.TE_GATEWAY_MAX_CONNECTIONS,
    },
    metricsPort: values.TE_GATEWAY_METRICS_PORT,
    keyServer:
      url === undefined
        ? {
            kind: 'embedded',
            seed: seed === undefined ? undefined : readSeedFile(seed, 'TE_KEYSERVER_SEED'),
            adminPassword: values.TE_KEYSERVER_ADMIN_PASSWORD,
            tokenTtlSeconds: values.TE_KEYSERVER_TOKEN_TTL_SECONDS,
            dataDir,
            store: values.TE_KEYSERVER_STORE as 'sqlite' | 'memory' | undefined,
            masterKey: values.TE_KEYSERVER_MASTER_KEY,
            masterKeyFile: values.TE_KEYSERVER_MASTER_KEY_FILE,
          }
        : {
            kind: 'tls',
            url,
            ca: ca === undefined ? undefined : readText(ca, 'TE_GATEWAY_KEYSERVER_CA'),
            fingerprint: values.TE_GATEWAY_KEYSERVER_FINGERPRINT,
            timeoutMs: values.TE_GATEWAY_KEYSERVER_TIMEOUT_MS,
            clientCert:
              values.TE_GATEWAY_KEYSERVER_CLIENT_CERT === undefined
                ? undefined
                : readText(values.TE_GATEWAY_KEYSERVER_CLIENT_CERT, 'TE_GATEWAY_KEYSERVER_CLIENT_CERT'),
            clientKey:
              values.TE_GATEWAY_KEYSERVER_CLIENT_KEY === undefined
                ? undefined
                : readText(values.TE_GATEWAY_KEYSERVER_CLIENT_KEY, 'TE_GATEWAY_KEYSERVER_CLIENT_KEY'),
            dataDir,
          },
    sessionStore:
      values.TE_GATEWAY_REDIS_URL === undefined
        ? { kind: 'memory' }
        : { kind: 'redis', url: values.TE_GATEWAY_REDIS_URL, sessionKeys: values.TE_GATEWAY_SESSION_KEY!, timeoutMs: values.TE_GATEWAY_REDIS_TIMEOUT_MS },
    auditIntegrity: auditIntegrityInput(values, dataDir),
    audit:
      values.TE_GATEWAY_AUDIT_URL !== undefined
        ? { kind: 'postgres', url: values.TE_GATEWAY_AUDIT_URL, timeoutMs: values.TE_GATEWAY_AUDIT_TIMEOUT_MS }
        : dataDir === undefined
          ? { kind: 'memory' }
          : { kind: 'sqlite', file: join(dataDir, 'audit.db') },
  };
}

/** The audit chain's keys and cadence; key files are read here, and a key is never echoed. */
function auditIntegrityInput(values: Values, dataDir: string | undefined): GatewayConfigInput['auditIntegrity'] {
  const keyFile = values.TE_GATEWAY_AUDIT_KEY_FILE;
  const signingFile = values.TE_GATEWAY_AUDIT_SIGNING_KEY_FILE;
  return {
    writer: values.TE_GATEWAY_AUDIT_WRITER,
    key: values.TE_GATEWAY_AUDIT_KEY ?? (keyFile === undefined ? undefined : readText(keyFile, 'TE_GATEWAY_AUDIT_KEY_FILE').trim()),
    signingKey: signingFile === undefined ? undefined : readText(signingFile, 'TE_GATEWAY_AUDIT_SIGNING_KEY_FILE'),
    trustedKeys: (values.TE_GATEWAY_AUDIT_TRUSTED_KEYS ?? []).filter((path) => path !== '').map((path) => readText(path, 'TE_GATEWAY_AUDIT_TRUSTED_KEYS')),
    checkpointEvery: values.TE_GATEWAY_AUDIT_CHECKPOINT_EVERY,
    checkpointSeconds: values.TE_GATEWAY_AUDIT_CHECKPOINT_SECONDS,
    dataDir,
  };
}

/** A schema issue as one line naming the variable behind its field (list entries as "key 2 of 3"). */
function describeIssue(issue: ConfigIssue, input: GatewayConfigInput, env: Env): string {
  const field = issue.path.filter((segment) => typeof segment === 'string').join('.');
  const fields = (issue as { params?: { fields?: string[] } }).params?.fields;
  if (fields !== undefined) {
    const names = fields.map((name) => variableAt(`${field}.${name}`)?.name ?? name);
    return `${names.join(' or ')}: ${issue.message}`;
  }
  const variable = variableAt(field);
  if (variable === undefined) return `invalid configuration ${issue.path.join('.') || '(root)'}: ${issue.message}`;
  const index = issue.path.find((segment) => typeof segment === 'number');
  if (index !== undefined) {
    const list = field.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], input) as unknown[];
    return `${variable.name}: key ${index + 1} of ${list.length} ${issue.message}`;
  }
  return `${variable.name}: ${issue.message}${shown(variable, env[variable.name])}`;
}

function variableAt(field: string): ConfigVariable | undefined {
  return (CONFIG_VARIABLES as readonly ConfigVariable[]).find((variable) => variable.field === field);
}

/** `, got "value"` for a plain setting; nothing for a secret (it may be a password or hold one). */
function shown(variable: ConfigVariable, raw: string | undefined): string {
  return variable.secret || raw === undefined ? '' : `, got "${raw.trim()}"`;
}

function readText(path: string, variable: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${variable}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
