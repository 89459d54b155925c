import { DEFAULT_DELETION_MAX_DAYS, DEFAULT_DELETION_MIN_DAYS, DELETION_DAYS_LIMIT } from '../../keyserver/engine/deletion-days.js';
import { DEFAULT_MAX_KEY_VERSIONS, MAX_KEY_VERSIONS_LIMIT } from '../../keyserver/engine/key-versions.js';
import { DEFAULT_ROTATION_SWEEP_SECONDS } from '../../keyserver/engine/schedule-sweep.js';
import { CONFIG_DEFAULTS, type GatewayConfigInput, LOG_LEVELS } from './config.js';

/**
 * How a variable's text is read before the configuration schema validates it: `integer` digits,
 * `list` comma-separated entries, `origins`/`origin` bare browser origins (docs/spec.md §8),
 * `file` a path whose content the gateway reads, `text` as given (trimmed).
 */
export type VariableType = 'text' | 'integer' | 'list' | 'origins' | 'origin' | 'file';

/** Which part of the gateway a variable configures; `keygate --help` and the README group by it. */
export type VariableGroup = 'gateway' | 'audit' | 'embedded' | 'daemon' | 'redis';

type Leaf = string | number | boolean | readonly unknown[];

/**
 * The dotted paths of the configuration's fields (`port`, `keyServer.url`), through every kind of a
 * union (`kind` itself excepted: it follows from what is set). A variable's `field` must be one of
 * them, so a field that does not exist is a compile error.
 */
export type ConfigField<T = GatewayConfigInput> = T extends object
  ? {
      [K in Exclude<keyof T, 'kind'> & string]-?: NonNullable<T[K]> extends Leaf ? K : K | `${K}.${ConfigField<NonNullable<T[K]>>}`;
    }[Exclude<keyof T, 'kind'> & string]
  : never;

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
  /**
   * The configuration field it fills (a GatewayConfig path): the environment reader places the value
   * there, and errors at that path name the variable.
   */
  readonly field: ConfigField;
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
  {
    name: 'TE_GATEWAY_HOST',
    type: 'text',
    default: CONFIG_DEFAULTS.host,
    meaning: 'listen address',
    secret: false,
    field: 'host',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_PORT',
    type: 'integer',
    default: CONFIG_DEFAULTS.port,
    meaning: 'listen port',
    secret: false,
    field: 'port',
    group: 'gateway',
  },
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
    meaning:
      'where the embedded key server keeps its identity certificate and its store (`keyserver.db`, SQLite, sealed at rest), and the audit log (`audit.db`, SQLite)',
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
    name: 'TE_GATEWAY_AUDIT_KEY',
    type: 'text',
    whenUnset: 'generated',
    meaning: 'base64 of 32 bytes: the HMAC key of the audit chain, shared by gateways writing one database; kept outside it',
    secret: true,
    field: 'auditIntegrity.key',
    group: 'audit',
  },
  {
    name: 'TE_GATEWAY_AUDIT_KEY_FILE',
    type: 'file',
    meaning: 'or: a file holding that key',
    secret: false,
    field: 'auditIntegrity.key',
    group: 'audit',
    notWith: 'TE_GATEWAY_AUDIT_KEY',
  },
  {
    name: 'TE_GATEWAY_AUDIT_SIGNING_KEY_FILE',
    type: 'file',
    whenUnset: 'generated',
    meaning: 'PEM (PKCS#8) Ed25519 private key that signs the chain head at each checkpoint',
    secret: false,
    field: 'auditIntegrity.signingKey',
    group: 'audit',
  },
  {
    name: 'TE_GATEWAY_AUDIT_TRUSTED_KEYS',
    type: 'list',
    meaning: 'comma-separated PEM public-key files of the other gateways whose checkpoints this one verifies',
    secret: false,
    field: 'auditIntegrity.trustedKeys',
    group: 'audit',
  },
  {
    name: 'TE_GATEWAY_AUDIT_WRITER',
    type: 'text',
    whenUnset: 'kept in the data directory',
    meaning: "this gateway's writer id in the chain (1 to 64 of `A-Z a-z 0-9 . _ -`), distinct per gateway",
    secret: false,
    field: 'auditIntegrity.writer',
    group: 'audit',
  },
  {
    name: 'TE_GATEWAY_AUDIT_CHECKPOINT_EVERY',
    type: 'integer',
    default: CONFIG_DEFAULTS.auditCheckpointEvery,
    meaning: 'sign the chain head every this many entries',
    secret: false,
    field: 'auditIntegrity.checkpointEvery',
    group: 'audit',
  },
  {
    name: 'TE_GATEWAY_AUDIT_CHECKPOINT_SECONDS',
    type: 'integer',
    default: CONFIG_DEFAULTS.auditCheckpointSeconds,
    meaning: 'or every this many seconds',
    secret: false,
    field: 'auditIntegrity.checkpointSeconds',
    group: 'audit',
  },
  {
    name: 'TE_GATEWAY_AUDIT_TIMEOUT_MS',
    type: 'integer',
    default: CONFIG_DEFAULTS.auditTimeoutMs,
    meaning:
      "bound on one request's whole wait at the PostgreSQL audit store: its pending record, its outcome and its reads (connecting or waiting for a pooled connection, and the statements), added up",
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
    name: 'TE_GATEWAY_CONSOLE',
    type: 'text',
    default: CONFIG_DEFAULTS.console,
    meaning: '`on` serves the operator console at `/console/` (same origin, strict content policy); `off` turns it off',
    secret: false,
    field: 'console',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_PUBLIC_ORIGIN',
    type: 'origin',
    meaning:
      'the URL clients address when a TLS-terminating proxy is in front or the gateway is mounted under a path (`https://example.com/kg`): the proof `htu` is checked against it',
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
    name: 'TE_GATEWAY_REPLAY_CACHE_KEY_SHARE',
    type: 'integer',
    whenUnset: `1/${CONFIG_DEFAULTS.replayCacheKeyShareDivisor} of the cache size (${CONFIG_DEFAULTS.replayCacheSize / CONFIG_DEFAULTS.replayCacheKeyShareDivisor})`,
    meaning:
      'most replay cache entries of one proof key: past it, that key alone gets 503 `PROOF_REPLAY_CACHE_FULL` (with `Retry-After`) while other keys are served; at most the cache size',
    secret: false,
    field: 'replayCacheKeyShare',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_REPLAY_CACHE_PRINCIPAL_SHARE',
    type: 'integer',
    whenUnset: `${CONFIG_DEFAULTS.replayCachePrincipalShareKeys} times the key share (${(CONFIG_DEFAULTS.replayCachePrincipalShareKeys * CONFIG_DEFAULTS.replayCacheSize) / CONFIG_DEFAULTS.replayCacheKeyShareDivisor})`,
    meaning:
      'most replay cache entries of one principal over all its proof keys: past it, that principal alone gets 503 `PROOF_REPLAY_CACHE_FULL` (with `Retry-After`); at least the key share, at most the cache size',
    secret: false,
    field: 'replayCachePrincipalShare',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_SESSION_MINTS_PER_MINUTE',
    type: 'integer',
    default: CONFIG_DEFAULTS.sessionMintsPerMinute,
    meaning: 'scoped and delegated sessions one principal may mint per minute; past it 429 `RATE_LIMITED` with `Retry-After`',
    secret: false,
    field: 'sessionMintsPerMinute',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_HEADERS_TIMEOUT_MS',
    type: 'integer',
    default: CONFIG_DEFAULTS.http.headersTimeoutMs,
    meaning: 'time a client has to send its request headers; a slower one is cut off (checked every second)',
    secret: false,
    field: 'http.headersTimeoutMs',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_REQUEST_TIMEOUT_MS',
    type: 'integer',
    default: CONFIG_DEFAULTS.http.requestTimeoutMs,
    meaning: 'time a client has to send its whole request, body included (at least the headers timeout)',
    secret: false,
    field: 'http.requestTimeoutMs',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_KEEPALIVE_TIMEOUT_MS',
    type: 'integer',
    default: CONFIG_DEFAULTS.http.keepAliveTimeoutMs,
    meaning: 'time an idle keep-alive connection stays open after a response',
    secret: false,
    field: 'http.keepAliveTimeoutMs',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_MAX_CONNECTIONS',
    type: 'integer',
    default: CONFIG_DEFAULTS.http.maxConnections,
    meaning: 'open HTTP connections at most; one more is closed at once, unanswered',
    secret: false,
    field: 'http.maxConnections',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_THROTTLE_NAME_FAILURES',
    type: 'integer',
    default: CONFIG_DEFAULTS.throttleNameFailures,
    meaning:
      'failed logins of one name from one address before it waits (30 s doubling, 429 `RATE_LIMITED`); twice this, from all, delays the name 1-10 s',
    secret: false,
    field: 'throttleNameFailures',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_THROTTLE_ADDRESS_FAILURES',
    type: 'integer',
    default: CONFIG_DEFAULTS.throttleAddressFailures,
    meaning: 'failed logins from one client address before it waits, whatever the names',
    secret: false,
    field: 'throttleAddressFailures',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_THROTTLE_WINDOW_SECONDS',
    type: 'integer',
    default: CONFIG_DEFAULTS.throttleWindowSeconds,
    meaning: 'failures idle this long are forgotten; also the longest wait',
    secret: false,
    field: 'throttleWindowSeconds',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_RATE_LIMIT',
    type: 'integer',
    whenUnset: 'off',
    meaning: 'requests per second per client address on password and certificate login (health and logout never limited)',
    secret: false,
    field: 'rateLimit',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS',
    type: 'list',
    whenUnset: 'none: key sets over https only, never from loopback, link-local or metadata addresses',
    meaning:
      'comma list of host names or addresses whose workload-issuer key sets may be fetched over plain http and from any address (docs/spec.md §4.24 item 4)',
    secret: false,
    field: 'jwksPlainHttpHosts',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_JWKS_CA_FILE',
    type: 'file',
    whenUnset: 'the public roots only',
    meaning:
      'PEM certificates trusted for workload-issuer key set servers beside the public roots (an in-cluster Kubernetes API server: its cluster CA)',
    secret: false,
    field: 'jwksCa',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_JWKS_TIMEOUT_MS',
    type: 'integer',
    whenUnset: '2000',
    meaning: 'longest wait for a workload issuer key set fetch, name resolution included',
    secret: false,
    field: 'jwksTimeoutMs',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_JWKS_CACHE_SECONDS',
    type: 'integer',
    whenUnset: '600',
    meaning: 'how long a fetched workload issuer key set is used before it is fetched again',
    secret: false,
    field: 'jwksCacheSeconds',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_TRUSTED_PROXIES',
    type: 'list',
    whenUnset: 'none: the socket address is the client',
    meaning: 'comma list of proxy IPs or CIDRs whose `X-Forwarded-For` names the client address',
    secret: false,
    field: 'trustedProxies',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_IPV6_PREFIX_LENGTH',
    type: 'integer',
    default: CONFIG_DEFAULTS.ipv6PrefixLength,
    meaning:
      'per-address limits (failed logins, request rate, pending logins and challenges) count an IPv6 client by this many leading bits, 1 to 128; an IPv4-mapped address counts as IPv4',
    secret: false,
    field: 'ipv6PrefixLength',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_MAX_SESSIONS_PER_PRINCIPAL',
    type: 'integer',
    default: CONFIG_DEFAULTS.maxSessionsPerPrincipal,
    meaning: 'live sessions one principal may hold; at the cap a new login is 429 `SESSION_LIMIT`',
    secret: false,
    field: 'maxSessionsPerPrincipal',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_METRICS_PORT',
    type: 'integer',
    whenUnset: 'off',
    meaning: 'port of a listener of its own serving Prometheus metrics at `GET /metrics` (on `TE_GATEWAY_METRICS_HOST`)',
    secret: false,
    field: 'metricsPort',
    group: 'gateway',
  },
  {
    name: 'TE_GATEWAY_METRICS_HOST',
    type: 'text',
    default: CONFIG_DEFAULTS.metricsHost,
    meaning: 'address of the metrics listener: loopback whatever `TE_GATEWAY_HOST` is, unless set',
    secret: false,
    field: 'metricsHost',
    group: 'gateway',
    onlyWith: 'TE_GATEWAY_METRICS_PORT',
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
    name: 'TE_KEYSERVER_ROTATION_SWEEP_SECONDS',
    type: 'integer',
    default: DEFAULT_ROTATION_SWEEP_SECONDS,
    meaning:
      'how often the key server rotates the keys whose `rotationPeriod` has passed and forgets `Idempotency-Key` records older than 24 hours, from 1 to 86400 (`keygate keyserver` reads it too, when --rotation-sweep is not given)',
    secret: false,
    field: 'keyServer.rotationSweepSeconds',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_MAX_KEY_VERSIONS',
    type: 'integer',
    default: DEFAULT_MAX_KEY_VERSIONS,
    meaning: `the most versions a key may have, from 1 to ${MAX_KEY_VERSIONS_LIMIT}: a rotation beyond it is 409 \`KEY_VERSIONS_EXHAUSTED\` (\`keygate keyserver\` reads it too, when --max-key-versions is not given)`,
    secret: false,
    field: 'keyServer.maxKeyVersions',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_DELETION_MIN_DAYS',
    type: 'integer',
    default: DEFAULT_DELETION_MIN_DAYS,
    meaning: `the fewest days a scheduled key deletion waits, from 1 to ${DELETION_DAYS_LIMIT} and at most the maximum (\`keygate keyserver\` reads it too, when --deletion-min-days is not given)`,
    secret: false,
    field: 'keyServer.deletionMinDays',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_DELETION_MAX_DAYS',
    type: 'integer',
    default: DEFAULT_DELETION_MAX_DAYS,
    meaning: `the most days a scheduled key deletion waits, and how long it waits when not told, from 1 to ${DELETION_DAYS_LIMIT} (\`keygate keyserver\` reads it too, when --deletion-max-days is not given)`,
    secret: false,
    field: 'keyServer.deletionMaxDays',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_STORE',
    type: 'text',
    whenUnset: '`sqlite` with a data directory',
    meaning:
      '`sqlite`: principals, keys, ACLs, certificates, trust, parameters, policy and tokens in `keyserver.db` in `TE_GATEWAY_DATA_DIR`, kept across restarts; `postgres` (the default with `TE_KEYSERVER_POSTGRES_URL`): the same in PostgreSQL, shared with key-server daemons; `memory`: nothing survives a restart (tests, demos; warned at boot)',
    secret: false,
    field: 'keyServer.store',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_POSTGRES_URL',
    type: 'text',
    meaning:
      "`postgres://user:password@host:port/database`: the engine's store in PostgreSQL, sealed under the master key (which must then be given); `keygate keyserver` reads it too (`--postgres`)",
    secret: true,
    field: 'keyServer.postgresUrl',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_MASTER_KEY',
    type: 'text',
    meaning:
      'base64 of 32 bytes (`openssl rand -base64 32`) sealing key material and verifiers at rest (AES-256-GCM); comma-separated, the first seals and all open (rotation); unset: a key file is generated beside the data file with a warning (`keygate keyserver` reads it too)',
    secret: true,
    field: 'keyServer.masterKey',
    group: 'embedded',
  },
  {
    name: 'TE_KEYSERVER_MASTER_KEY_FILE',
    type: 'text',
    meaning: 'or: a file of such keys, one per line, the first sealing (`keygate keyserver --master-key-file`)',
    secret: false,
    field: 'keyServer.masterKeyFile',
    group: 'embedded',
    notWith: 'TE_KEYSERVER_MASTER_KEY',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_URL',
    type: 'text',
    whenUnset: 'none (embedded)',
    meaning:
      '`https://host:port` of a key-server daemon (`keygate keyserver`), or several, comma-separated (each request goes to one that answers); set, it replaces the embedded key server (`TE_KEYSERVER_*` and the identity in `TE_GATEWAY_DATA_DIR` then do not apply)',
    secret: false,
    field: 'keyServer.url',
    group: 'daemon',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_CA',
    type: 'file',
    meaning:
      "PEM file of the CA that signed the daemons' certificates, one for all of them (a self-signed daemon certificate is its own CA)",
    secret: false,
    field: 'keyServer.ca',
    group: 'daemon',
    onlyWith: 'TE_GATEWAY_KEYSERVER_URL',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_FINGERPRINT',
    type: 'text',
    meaning:
      "or: the daemon certificate's SHA-256, hex with or without colons; with several URLs, one per URL in their order, comma-separated; exactly one of the two with a URL",
    secret: false,
    field: 'keyServer.fingerprint',
    group: 'daemon',
    onlyWith: 'TE_GATEWAY_KEYSERVER_URL',
    notWith: 'TE_GATEWAY_KEYSERVER_CA',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_CLIENT_CERT',
    type: 'file',
    whenUnset: 'generated in `TE_GATEWAY_DATA_DIR`',
    meaning:
      'PEM file of the client certificate the gateway presents to the daemon (mutual TLS; the daemon trusts it by `--client-ca` or `--client-fingerprint`); unset: `keyserver-client.crt` generated on first start, its fingerprint logged at boot',
    secret: false,
    field: 'keyServer.clientCert',
    group: 'daemon',
    onlyWith: 'TE_GATEWAY_KEYSERVER_URL',
    requiredWith: 'TE_GATEWAY_KEYSERVER_CLIENT_KEY',
  },
  {
    name: 'TE_GATEWAY_KEYSERVER_CLIENT_KEY',
    type: 'file',
    meaning: 'PEM file of its private key',
    secret: false,
    field: 'keyServer.clientKey',
    group: 'daemon',
    onlyWith: 'TE_GATEWAY_KEYSERVER_URL',
    requiredWith: 'TE_GATEWAY_KEYSERVER_CLIENT_CERT',
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
      'comma-separated base64 keys of 32 bytes (`openssl rand -base64 32`); the first seals each session record in Redis as a whole (AES-256-GCM), all open (rotate by putting a new key first)',
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
  audit: 'The audit chain: MAC key, checkpoint signing key, writer id (generated into TE_GATEWAY_DATA_DIR when unset)',
  embedded: 'The embedded key server (without TE_GATEWAY_KEYSERVER_URL)',
  daemon: 'A key-server daemon over TLS 1.3 instead of the embedded engine',
  redis: 'Sessions and the proof replay cache in Redis, shared by N gateways (scale-out)',
};

/** Variables of the test suite's own harness, not of the program: never reported as unknown. */
export const HARNESS_PREFIX = 'TE_TEST_';

export function findVariable(name: string): ConfigVariable | undefined {
  return (CONFIG_VARIABLES as readonly ConfigVariable[]).find((variable) => variable.name === name);
}
