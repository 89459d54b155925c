import { CONFIG_DEFAULTS, LOG_LEVELS } from './config.js';

/**
 * How a variable's text is read before the configuration schema validates it: `integer` digits,
 * `list` comma-separated entries, `origins`/`origin` bare browser origins (seed 001 "Browser access"),
 * `file` a path whose content the gateway reads, `text` as given (trimmed).
 */
export type VariableType = 'text' | 'integer' | 'list' | 'origins' | 'origin' | 'file';

/** Which part of the gateway a variable configures; `keygate --help` and the README group by it. */
export type VariableGroup = 'gateway' | 'embedded' | 'daemon' | 'redis';

export interface ConfigVariable {
  readonly name: `TE_${string}`;
  readonly type: VariableType;
  /** The value used when unset (from CONFIG_DEFAULTS). */
  readonly default?: string | number;
  /** Without a default: what unset means (`none` when absent). */
  readonly whenUnset?: string;
  /** One sentence; `backticks` mark literal text (the README keeps them, --help drops them). */
  readonly meaning: string;
  /** A password, key or URL that may hold one: never echoed in an error, a log line or --help. */
  readonly secret: boolean;
  /** The configuration field it fills (GatewayConfig path); errors at that path name the variable. */
  readonly field: string;
  readonly group: VariableGroup;
  /** Set without this other variable, it stops the boot ("applies only with ..."). */
  readonly onlyWith?: `TE_${string}`;
  /** Required once this other variable is set. */
  readonly requiredWith?: `TE_${string}`;
  /** Set together with this other variable, it stops the boot (one of the two, not both). */
  readonly notWith?: `TE_${string}`;
}

/** Every `TE_*` variable keygate reads, declared once. */
export const CONFIG_VARIABLES = [
  { name: 'TE_GATEWAY_HOST', type: 'text', default: CONFIG_DEFAULTS.host, meaning: 'listen address', secret: false, field: 'host', group: 'gateway' },
  { name: 'TE_GATEWAY_PORT', type: 'integer', default: CONFIG_DEFAULTS.port, meaning: 'listen port', secret: false, field: 'port', group: 'gateway' },
  {
    name: 'TE_GATEWAY_SESSION_TTL_SECONDS',
    type: 'integer',
    default: CONFIG_DEFAULTS.sessionTtlSeconds,
    meaning: 'lifetime of a gateway session',
    secret: false,
    field: 'sessionTtlSeconds',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_LOG_LEVEL',
    type: 'text',
    default: CONFIG_DEFAULTS.logLevel,
    meaning: `pino level: ${LOG_LEVELS.join('|')}`,
    secret: false,
    field: 'logLevel',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_DATA_DIR',
    type: 'text',
    default: CONFIG_DEFAULTS.cliDataDir,
    meaning: 'where the embedded key server keeps its identity certificate, and the audit log (`audit.db`, SQLite)',
    secret: false,
    field: 'keyServer.dataDir',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_AUDIT_URL',
    type: 'text',
    meaning: '`postgres://user:password@host:port/database`: the audit log in PostgreSQL instead of SQLite',
    secret: true,
    field: 'audit.url',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_AUDIT_TIMEOUT_MS',
    type: 'integer',
    default: CONFIG_DEFAULTS.auditTimeoutMs,
    meaning: 'bound on one call to the PostgreSQL audit store as a whole: connecting or waiting for a pooled connection, and the statement',
    secret: false,
    field: 'audit.timeoutMs',
    group: 'gateway',
    onlyWith: 'TE_GATEWAY_AUDIT_URL',
  },
  {
    name: 'TE_GATEWAY_CORS_ORIGINS',
    type: 'origins',
    meaning:
      'comma-separated browser origins allowed cross-origin access (`https://app.example.com, http://localhost:5173`); unset: no CORS header at all; `*`, a path or a trailing slash stop the boot',
    secret: false,
    field: 'corsOrigins',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_PUBLIC_ORIGIN',
    type: 'origin',
    meaning: 'the origin clients address when a TLS-terminating proxy is in front (proof `htu`)',
    secret: false,
    field: 'publicOrigin',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_REPLAY_CACHE_SIZE',
    type: 'integer',
    default: CONFIG_DEFAULTS.replayCacheSize,
    meaning: 'bound of the proof replay cache; when full, new proofs get 503 `PROOF_REPLAY_CACHE_FULL`',
    secret: false,
    field: 'replayCacheSize',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_METRICS_PORT',
    type: 'integer',
    whenUnset: 'off',
    meaning: 'port of a listener of its own serving Prometheus metrics at `GET /metrics` (on `TE_GATEWAY_HOST`)',
    secret: false,
    field: 'metricsPort',
    group: 'gateway',
  },
  {
    name: 'TE_KEYSERVER_SEED',
    type: 'file',
    meaning: 'JSON file `{"principals":[{"name","kind":"user|group|service","password"?,"roles"?}]}` of principals to create at start',
    secret: false,
    field: 'keyServer.seed',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_ADMIN_PASSWORD',
    type: 'text',
    meaning: 'password of the bootstrap user `admin` (`keygate keyserver` reads it too, when --admin-password is not given)',
    secret: true,
    field: 'keyServer.adminPassword',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_TOKEN_TTL_SECONDS',
    type: 'integer',
    whenUnset: 'never expires',
    meaning: 'lifetime of a key-server token',
    secret: false,
    field: 'keyServer.tokenTtlSeconds',
    group: 'embedded',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_URL',
    type: 'text',
    whenUnset: 'none (embedded)',
    meaning:
      '`https://host:port` of a key-server daemon (`keygate keyserver`); set, it replaces the embedded key server (the `TE_KEYSERVER_*` variables and the identity in `TE_GATEWAY_DATA_DIR` then do not apply)',
    secret: false,
    field: 'keyServer.url',
    group: 'daemon',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_CA',
    type: 'file',
    meaning: "PEM file of the CA that signed the daemon's certificate (a self-signed daemon certificate is its own CA)",
    secret: false,
    field: 'keyServer.ca',
    group: 'daemon',
    onlyWith: 'TE_GATEWAY_KEYSERVER_URL',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_FINGERPRINT',
    type: 'text',
    meaning: "or: the daemon certificate's SHA-256, hex with or without colons; exactly one of the two with a URL",
    secret: false,
    field: 'keyServer.fingerprint',
    group: 'daemon',
    onlyWith: 'TE_GATEWAY_KEYSERVER_URL',
    notWith: 'TE_GATEWAY_KEYSERVER_CA',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_TIMEOUT_MS',
    type: 'integer',
    default: CONFIG_DEFAULTS.keyServerTimeoutMs,
    meaning: "bound on one request's whole time at the daemon: connecting and every call of that request, added up",
    secret: false,
    field: 'keyServer.timeoutMs',
    group: 'daemon',
    onlyWith: 'TE_GATEWAY_KEYSERVER_URL',
  },
  {
    name: 'TE_GATEWAY_REDIS_URL',
    type: 'text',
    whenUnset: 'none (memory)',
    meaning:
      '`redis://[user:password@]host[:port][/db]` (or `rediss://`): sessions and the proof replay cache in Redis, shared by every gateway pointing at it',
    secret: true,
    field: 'sessionStore.url',
    group: 'redis',
  },
  {
    name: 'TE_GATEWAY_SESSION_KEY',
    type: 'list',
    meaning:
      "comma-separated base64 keys of 32 bytes (`openssl rand -base64 32`); the first seals each session's key-server token (AES-256-GCM), all open (rotate by putting a new key first)",
    secret: true,
    field: 'sessionStore.sessionKeys',
    group: 'redis',
    onlyWith: 'TE_GATEWAY_REDIS_URL',
    requiredWith: 'TE_GATEWAY_REDIS_URL',
  },
  {
    name: 'TE_GATEWAY_REDIS_TIMEOUT_MS',
    type: 'integer',
    default: CONFIG_DEFAULTS.redisTimeoutMs,
    meaning: 'bound on connecting to Redis and on each command',
    secret: false,
    field: 'sessionStore.timeoutMs',
    group: 'redis',
    onlyWith: 'TE_GATEWAY_REDIS_URL',
  },
] as const satisfies readonly ConfigVariable[];

export type VariableName = (typeof CONFIG_VARIABLES)[number]['name'];

/** The headings of the groups, in the order --help and the README list them. */
export const VARIABLE_GROUPS: Readonly<Record<VariableGroup, string>> = {
  gateway: 'The gateway',
  embedded: 'The embedded key server (without TE_GATEWAY_KEYSERVER_URL)',
  daemon: 'A key-server daemon over TLS 1.3 instead of the embedded engine',
  redis: 'Sessions and the proof replay cache in Redis, shared by N gateways (scale-out)',
};

/** Variables of the test suite's own harness, not of the program: never reported as unknown. */
export const HARNESS_PREFIX = 'TE_TEST_';

export function findVariable(name: string): ConfigVariable | undefined {
  return (CONFIG_VARIABLES as readonly ConfigVariable[]).find((variable) => variable.name === name);
}
