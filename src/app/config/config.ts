/**
 * The gateway's configuration, gathered in this folder: `variables.ts` is the table of environment
 * variables (name, field, parser, default, group, secret); `from-env.ts` reads the environment (and
 * `env-files.ts` its `_FILE` variants) through that table; this file is the schema every value passes,
 * with its defaults, and `checks.ts` and `cors-origins.ts` the value checks it refines with;
 * `unknown-variables.ts` names a misspelt variable; `masked.ts` shows the effective configuration with
 * secrets masked; `docs.ts` writes the README's table.
 */

import { z } from 'zod';
import { masterKeyFileProblem, masterKeyListProblem } from '../../keyserver/at-rest/master-key-source.js';
import { ConfigError } from '../../keyserver/config-error.js';
import { DEFAULT_DELETION_MAX_DAYS, DEFAULT_DELETION_MIN_DAYS, DELETION_DAYS_LIMIT } from '../../keyserver/engine/deletion-days.js';
import { MAX_KEY_VERSIONS_LIMIT } from '../../keyserver/engine/key-versions.js';
import { normaliseFingerprint } from '../../keyserver/identity/fingerprint.js';
import { principalSeedSchema } from '../../keyserver/seed-file.js';
import { isAddressOrCidr, isCertificatePem, isHttpsOrigin, isKeyOfCertificate, isRedisUrl, isSessionKey } from './checks.js';
import { parseCorsOrigins, parsePublicOrigin } from './cors-origins.js';

/** Every default of the configuration, in one place: the schema below and `keygate --help` read them. */
export const CONFIG_DEFAULTS = {
  host: '127.0.0.1',
  port: 8080,
  /** 12 hours. */
  sessionTtlSeconds: 43_200,
  logLevel: 'info',
  replayCacheSize: 100_000,
  /** Each key's share of the replay cache when TE_GATEWAY_REPLAY_CACHE_KEY_SHARE is unset: 1/20 of it. */
  replayCacheKeyShareDivisor: 20,
  /** Each principal's share when TE_GATEWAY_REPLAY_CACHE_PRINCIPAL_SHARE is unset: this many key shares. */
  replayCachePrincipalShareKeys: 4,
  /** Scoped and delegated sessions one principal may mint per minute. */
  sessionMintsPerMinute: 60,
  keyServerTimeoutMs: 5_000,
  redisTimeoutMs: 1_000,
  auditTimeoutMs: 2_000,
  redisKeyPrefix: 'keygate:',
  /** The audit chain's head is signed every this many entries, or every this many seconds. */
  auditCheckpointEvery: 1000,
  auditCheckpointSeconds: 60,
  /**
   * The HTTP edge. Node checks the headers and request timeouts every
   * `connectionsCheckingIntervalMs`, so a slow client is cut off at most timeout + interval after it
   * connected: 10 + 1 s for its headers, 25 + 1 s for the whole request (Node's own: about 320 s).
   */
  http: {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 25_000,
    keepAliveTimeoutMs: 5_000,
    maxConnections: 1_000,
    connectionsCheckingIntervalMs: 1_000,
  },
  throttleNameFailures: 5,
  throttleAddressFailures: 50,
  /** 15 minutes. */
  throttleWindowSeconds: 900,
  maxSessionsPerPrincipal: 1000,
  /** The metrics listener stays on the machine unless told otherwise: scrapes are not for the world. */
  metricsHost: '127.0.0.1',
  /** Per-address limits group an IPv6 client by this prefix: one host usually holds a whole /64. */
  ipv6PrefixLength: 64,
  /** Where `keygate serve` keeps its data when TE_GATEWAY_DATA_DIR is unset (the library keeps none). */
  cliDataDir: './data',
  /** The operator console at `/console/` is served unless turned off. */
  console: 'on',
} as const;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An integer from `min` to `max`, refused with one message naming the range. */
function integerIn(min: number, max: number) {
  const message = `expected an integer from ${min} to ${max}`;
  return z.number({ message }).int(message).min(min, message).max(max, message);
}

/** Reports `problem` as the field's issue: the master key is checked before anything is written. */
function addProblem(ctx: z.RefinementCtx, problem: string | undefined): void {
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
}

const embeddedKeyServer = z
  .strictObject({
    kind: z.literal('embedded'),
    /** Principals to create at start (the seed file's content). */
    seed: principalSeedSchema.optional(),
    /** Password of the bootstrap user `admin`. */
    adminPassword: z.string().min(1).optional(),
    /** Token lifetime in seconds; absent: tokens never expire. */
    tokenTtlSeconds: integerIn(1, Number.MAX_SAFE_INTEGER).optional(),
    /** Seconds between two sweeps that rotate due keys and forget day-old idempotency records; absent: 60. */
    rotationSweepSeconds: integerIn(1, 86_400).optional(),
    /** The most versions a key may have (docs/spec.md §4.22 item 2); absent: DEFAULT_MAX_KEY_VERSIONS (100). */
    maxKeyVersions: integerIn(1, MAX_KEY_VERSIONS_LIMIT).optional(),
    /** The fewest and most days a scheduled deletion waits (docs/spec.md §4.23 item 5); absent: 7 and 30. */
    deletionMinDays: integerIn(1, DELETION_DAYS_LIMIT).optional(),
    deletionMaxDays: integerIn(1, DELETION_DAYS_LIMIT).optional(),
    /** Where the engine keeps its identity certificate and its SQLite store; absent: in memory only. */
    dataDir: z.string().min(1).optional(),
    /**
     * `sqlite` (the default with a data directory): `keyserver.db` there, sealed at rest; `postgres` (the
     * default with `postgresUrl`): the tables in that database, sealed at rest, shared with key-server
     * daemons; `memory`: nothing survives a restart (tests, demos), said at boot. Without a data
     * directory or a URL the store is memory.
     */
    store: z.enum(['sqlite', 'postgres', 'memory']).optional(),
    /** `postgres://user:password@host:port/database` of the engine's store; never logged. */
    postgresUrl: z
      .string()
      .regex(/^postgres(?:ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
      .optional(),
    /** Base64 master key(s) sealing the store (the first seals); or a file of them; neither: generated in the data directory. */
    masterKey: z
      .string()
      .min(1)
      .superRefine((value, ctx) => addProblem(ctx, masterKeyListProblem(value)))
      .optional(),
    masterKeyFile: z
      .string()
      .min(1)
      .superRefine((value, ctx) => addProblem(ctx, masterKeyFileProblem(value)))
      .optional(),
  })
  .refine((value) => value.store !== 'sqlite' || value.dataDir !== undefined, { message: 'store sqlite needs a dataDir', path: ['store'] })
  .refine((value) => (value.deletionMinDays ?? DEFAULT_DELETION_MIN_DAYS) <= (value.deletionMaxDays ?? DEFAULT_DELETION_MAX_DAYS), {
    message: 'the deletion minimum is above the maximum (defaults 7 and 30 days)',
    path: ['deletionMinDays'],
  })
  .refine((value) => value.store !== 'postgres' || value.postgresUrl !== undefined, {
    message: 'store postgres needs a postgresUrl',
    path: ['store'],
  })
  .refine((value) => value.postgresUrl === undefined || (value.store ?? 'postgres') === 'postgres', {
    message: 'applies only with store postgres',
    path: ['postgresUrl'],
  })
  // Every key server on one database seals under the same key: one generated per process would not open another's rows.
  .refine((value) => value.postgresUrl === undefined || value.masterKey !== undefined || value.masterKeyFile !== undefined, {
    message: 'a store in PostgreSQL needs the master key given (masterKey or masterKeyFile), the same for every key server on it',
    path: ['postgresUrl'],
  })
  .refine((value) => value.masterKey === undefined || value.masterKeyFile === undefined, {
    message: 'set masterKey or masterKeyFile, not both',
    path: ['masterKey'],
  });

/**
 * A key-server daemon reached over TLS 1.3 (architecture.md "The key server"). Trust is exactly one
 * of a CA certificate (PEM) or a pinned SHA-256 fingerprint of the daemon's certificate.
 */
const tlsKeyServer = z
  .strictObject({
    kind: z.literal('tls'),
    /**
     * `https://host[:port]`, nothing after the authority; or several daemons, as a list or one string
     * separated by commas (docs/deployment.md "Gateways and several daemons").
     */
    url: oneOrSeveral(z.string().refine(isHttpsOrigin, 'expected https://host[:port]')),
    /** PEM of the CA (or the daemon's own self-signed certificate) to validate every daemon against. */
    ca: z.string().refine(isCertificatePem, 'holds no PEM certificate').optional(),
    /**
     * SHA-256 of the daemon certificate's DER, hex with or without colons (normalised to lower-case hex);
     * with several daemons, one per URL in the same order, as the URLs are given.
     */
    fingerprint: oneOrSeveral(
      z
        .string()
        .transform(
          (value, ctx) => normaliseFingerprint(value) ?? (ctx.addIssue({ code: 'custom', message: 'expected 64 hex digits' }), z.NEVER),
        ),
    ).optional(),
    /** Bound on one gateway request's whole time at the daemon (connecting and all its calls), in ms. */
    timeoutMs: integerIn(1, 600_000).default(CONFIG_DEFAULTS.keyServerTimeoutMs),
    /** TLS 1.3 session resumption across the per-request connections. */
    resumeSessions: z.boolean().default(true),
    /**
     * The client certificate and key (PEM) the gateway presents (mutual TLS); absent: generated on first
     * start in `dataDir` (`keyserver-client.crt`/`.key`), or, without one, for this process only.
     */
    clientCert: z.string().refine(isCertificatePem, 'holds no PEM certificate').optional(),
    clientKey: z
      .string()
      .refine((value) => value.includes('PRIVATE KEY-----'), 'holds no PEM private key')
      .optional(),
    dataDir: z.string().min(1).optional(),
  })
  .refine((value) => (value.clientCert === undefined) === (value.clientKey === undefined), {
    message: 'clientCert and clientKey go together',
    params: { fields: ['clientCert', 'clientKey'] },
  })
  .refine(
    (value) => value.clientCert === undefined || value.clientKey === undefined || isKeyOfCertificate(value.clientCert, value.clientKey),
    {
      message: 'the key is not the private key of the certificate (or does not parse): give the pair the daemon trusts',
      params: { fields: ['clientCert', 'clientKey'], joiner: ' and ' },
    },
  )
  .refine((value) => (value.ca === undefined) !== (value.fingerprint === undefined), {
    message: 'exactly one of ca or fingerprint is required',
    // `params.fields` lets the environment reader name both variables.
    params: { fields: ['ca', 'fingerprint'] },
  })
  .superRefine((value, ctx) => {
    const urls = listed(value.url);
    if (new Set(urls.map((url) => new URL(url).origin)).size !== urls.length)
      ctx.addIssue({ code: 'custom', message: 'lists a daemon twice', path: ['url'] });
    const pins = value.fingerprint === undefined ? undefined : listed(value.fingerprint).length;
    if (pins === undefined || pins === urls.length) return;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const message = `${plural(pins, 'fingerprint')} for ${plural(urls.length, 'daemon URL')}: give one per URL, in the same order`;
    ctx.addIssue({ code: 'custom', message, path: ['fingerprint'] });
  });

/** The entries of a setting given as a list or as one string separated by commas. */
export function listed(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? value.split(',').map((part) => part.trim()) : value;
}

/**
 * One entry or several, as a list or one string separated by commas, each checked (and normalised)
 * by `entry`; parsed, the value keeps the shape it was given in, so a single-URL caller reads back
 * the string it gave.
 */
function oneOrSeveral(entry: z.ZodType<string, string>) {
  return z.union([z.string(), z.array(z.string()).min(1)]).transform((value, ctx) => {
    const entries = listed(value).map((text, i) => {
      const parsed = entry.safeParse(text);
      if (!parsed.success) ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]!.message, path: [i] });
      return parsed.success ? parsed.data : text;
    });
    return typeof value === 'string' ? entries.join(',') : entries;
  });
}

/**
 * Sessions and the proof replay cache in Redis, shared by every gateway pointing at it (architecture.md
 * "scale-out"). Each record is sealed as a whole with AES-256-GCM under `sessionKeys` (docs/spec.md §12 item 1).
 */
const redisSessionStore = z.strictObject({
  kind: z.literal('redis'),
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: z.string().refine(isRedisUrl, 'expected redis://host[:port][/db] or rediss://host[:port][/db]'),
  /** Base64 of 32 random bytes each: the first seals, every one opens (key rotation). */
  sessionKeys: z
    .array(z.string().refine(isSessionKey, 'is not base64 of 32 bytes (e.g. `openssl rand -base64 32`)'))
    .min(1, 'at least one key is required')
    .refine((keys) => new Set(keys.map((key) => Buffer.from(key, 'base64').toString('hex'))).size === keys.length, 'a key is listed twice'),
  /** Bound on connecting and on each Redis command, in ms. */
  timeoutMs: integerIn(1, 60_000).default(CONFIG_DEFAULTS.redisTimeoutMs),
  /** Prefix of every key the gateway writes, so deployments can share one Redis. */
  keyPrefix: z.string().min(1).default(CONFIG_DEFAULTS.redisKeyPrefix),
});

export type RedisSessionStoreConfig = z.output<typeof redisSessionStore>;
export type EmbeddedKeyServerConfig = z.output<typeof embeddedKeyServer>;
export type TlsKeyServerConfig = z.output<typeof tlsKeyServer>;
const milliseconds = integerIn(1, 600_000);

/**
 * Where audit records go. `memory` (the library default) keeps them in the process only; the CLI picks
 * `sqlite` in its data directory, or `postgres` when TE_GATEWAY_AUDIT_URL is set.
 */
const auditLog = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('memory') }),
  z.strictObject({ kind: z.literal('sqlite'), file: z.string().min(1) }),
  z.strictObject({
    kind: z.literal('postgres'),
    /** `postgres://user:password@host:port/database`; never logged. */
    url: z.string().regex(/^postgres(?:ql)?:\/\//, 'expected a postgres:// or postgresql:// URL'),
    schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a plain lower-case identifier')
      .optional(),
    /** Bound on one audit call as a whole: connecting or waiting for the pool, and the statement. */
    timeoutMs: milliseconds.default(CONFIG_DEFAULTS.auditTimeoutMs),
    connectTimeoutMs: milliseconds.optional(),
    statementTimeoutMs: milliseconds.optional(),
  }),
]);

/**
 * How the audit log is made provable (docs/spec.md §9.3, §9.4): this gateway's writer id, the HMAC key of the
 * chains, the Ed25519 key that signs checkpoints, the keys a verifier trusts, and how often the head
 * is signed. Absent keys are generated into `dataDir` (0600, with a warning), or kept in memory only
 * when there is none.
 */
const auditIntegrity = z.strictObject({
  /** Stable per gateway, distinct between gateways sharing one store; default: kept in `dataDir`. */
  writer: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'expected 1 to 64 of A-Z a-z 0-9 . _ -')
    .optional(),
  /** Base64 of 32 bytes; never logged. */
  key: z.string().refine(isSessionKey, 'expected base64 of 32 bytes').optional(),
  /** PEM (PKCS#8) of the Ed25519 private key signing checkpoints; never logged. */
  signingKey: z.string().optional(),
  /** PEM public keys of other gateways' checkpoint keys, trusted by this gateway's verifier. */
  trustedKeys: z.array(z.string()).default([]),
  checkpointEvery: z.number().int().min(1).max(1_000_000).default(CONFIG_DEFAULTS.auditCheckpointEvery),
  checkpointSeconds: z.number().int().min(1).max(86_400).default(CONFIG_DEFAULTS.auditCheckpointSeconds),
  /** Where generated keys and the writer id are kept. */
  dataDir: z.string().min(1).optional(),
  /**
   * Begin a new chain although the witnessed one (the head kept in `dataDir`) is not in the store:
   * `keygate serve --new-audit-chain`. Without it, a store that lost that chain stops the boot.
   */
  newChain: z.boolean().default(false),
});
export type AuditIntegrityConfig = z.output<typeof auditIntegrity>;

/** Timeouts and the connection cap of the HTTP server. */
const httpEdge = z
  .strictObject({
    /** Time a client has to send its request headers, from the connection (or the previous request). */
    headersTimeoutMs: integerIn(1, 600_000).default(CONFIG_DEFAULTS.http.headersTimeoutMs),
    /** Time a client has to send its whole request, body included. */
    requestTimeoutMs: integerIn(1, 600_000).default(CONFIG_DEFAULTS.http.requestTimeoutMs),
    /** Time an idle keep-alive connection stays open after a response. */
    keepAliveTimeoutMs: integerIn(1, 600_000).default(CONFIG_DEFAULTS.http.keepAliveTimeoutMs),
    /** Open connections at most; one more is closed at once. */
    maxConnections: integerIn(1, 1_000_000).default(CONFIG_DEFAULTS.http.maxConnections),
  })
  .refine((value) => value.headersTimeoutMs <= value.requestTimeoutMs, {
    message: 'the headers timeout must not exceed the request timeout',
    params: { fields: ['headersTimeoutMs', 'requestTimeoutMs'] },
  });

export type HttpEdgeConfig = z.output<typeof httpEdge>;

/** Everything `createGateway` needs. The CLI builds it from `TE_*` variables; an embedding service passes it. */
export const gatewayConfigSchema = z.strictObject({
  host: z.string().min(1).default(CONFIG_DEFAULTS.host),
  port: integerIn(0, 65_535).default(CONFIG_DEFAULTS.port),
  /** Lifetime of a gateway session in seconds. */
  sessionTtlSeconds: integerIn(1, Number.MAX_SAFE_INTEGER).default(CONFIG_DEFAULTS.sessionTtlSeconds),
  logLevel: z.enum(LOG_LEVELS, { message: `expected one of ${LOG_LEVELS.join(', ')}` }).default(CONFIG_DEFAULTS.logLevel),
  /** Browser origins allowed cross-origin access (docs/spec.md §8); empty: no CORS at all. */
  corsOrigins: z
    .array(z.string())
    .default([])
    .transform((entries, ctx) => {
      try {
        return parseCorsOrigins(entries.join(','), 'corsOrigins');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * The origin clients address when a TLS-terminating proxy sits in front (docs/spec.md §5.5): the proof's
   * `htu` is checked against it instead of the connection's scheme and Host.
   */
  publicOrigin: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      try {
        return parsePublicOrigin(value, 'publicOrigin');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * The URL clients address the gateway by, base path included when it is mounted under one
   * (`https://example.com/kg`); the same rules as `publicOrigin`, which it replaces when both are set.
   */
  publicUrl: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      try {
        return parsePublicOrigin(value, 'publicUrl');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** Bound of the proof replay cache (docs/spec.md §5.4); when full, new proofs are refused with 503. */
  replayCacheSize: integerIn(1, Number.MAX_SAFE_INTEGER).default(CONFIG_DEFAULTS.replayCacheSize),
  /**
   * Most live entries of one proof key (`jkt`) in the replay cache (docs/spec.md §12 item 6), so that one key
   * cannot fill it for every other; absent: 1/20 of the cache; capped at the cache size.
   */
  replayCacheKeyShare: integerIn(1, Number.MAX_SAFE_INTEGER).optional(),
  /**
   * Most live entries of one principal over all its proof keys, so that a principal minting scoped
   * sessions with fresh keys cannot fill the cache for every other; absent: 4 key shares; capped at
   * the cache size, and never under the key share.
   */
  replayCachePrincipalShare: integerIn(1, Number.MAX_SAFE_INTEGER).optional(),
  /** Scoped and delegated sessions one principal may mint per minute; past it 429 RATE_LIMITED. */
  sessionMintsPerMinute: integerIn(1, Number.MAX_SAFE_INTEGER).default(CONFIG_DEFAULTS.sessionMintsPerMinute),
  http: httpEdge.default({
    headersTimeoutMs: CONFIG_DEFAULTS.http.headersTimeoutMs,
    requestTimeoutMs: CONFIG_DEFAULTS.http.requestTimeoutMs,
    keepAliveTimeoutMs: CONFIG_DEFAULTS.http.keepAliveTimeoutMs,
    maxConnections: CONFIG_DEFAULTS.http.maxConnections,
  }),
  /** Failed logins per user name, then per client address, before the waits begin (docs/spec.md §10). */
  throttleNameFailures: integerIn(1, 1_000_000).default(CONFIG_DEFAULTS.throttleNameFailures),
  throttleAddressFailures: integerIn(1, 1_000_000).default(CONFIG_DEFAULTS.throttleAddressFailures),
  /** Failures idle this long are forgotten; also the longest wait. */
  throttleWindowSeconds: integerIn(30, 86_400).default(CONFIG_DEFAULTS.throttleWindowSeconds),
  /** Requests per second per client address on password and certificate login; absent: off. */
  rateLimit: integerIn(1, 1_000_000).optional(),
  /** Hosts whose workload-issuer key sets may come over plain http, from any address (docs/spec.md §4.24 item 4). */
  jwksPlainHttpHosts: z
    .array(z.string().min(1).max(253))
    .default([])
    .transform((hosts) => hosts.map((host) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase())),
  /** PEM certificates trusted for key set servers beside the public roots (TE_GATEWAY_JWKS_CA_FILE, read at boot). */
  jwksCa: z.string().min(1).optional(),
  /** Longest wait for one key set fetch. */
  jwksTimeoutMs: integerIn(50, 60_000).default(2000),
  /** How long a fetched key set is used. */
  jwksCacheSeconds: integerIn(1, 86_400).default(600),
  /** Peers whose X-Forwarded-For names the client (IPs or CIDRs); empty: the socket's address only. */
  trustedProxies: z
    .array(z.string())
    .default([])
    .refine((entries) => entries.every(isAddressOrCidr), 'expected IP addresses or CIDR blocks (10.0.0.0/8, ::1)'),
  /** Per-address limits group an IPv6 client by this many leading bits (128: the whole address). */
  ipv6PrefixLength: integerIn(1, 128).default(CONFIG_DEFAULTS.ipv6PrefixLength),
  /** Live sessions one principal may hold; at the cap a new login is 429 SESSION_LIMIT. */
  maxSessionsPerPrincipal: integerIn(1, Number.MAX_SAFE_INTEGER).default(CONFIG_DEFAULTS.maxSessionsPerPrincipal),
  /** Port of the Prometheus metrics listener (`GET /metrics`, on `metricsHost`); absent: no metrics listener. */
  metricsPort: integerIn(0, 65_535).optional(),
  /** Address of the metrics listener, loopback unless set (never `host` by default). */
  metricsHost: z.string().min(1).default(CONFIG_DEFAULTS.metricsHost),
  /** `on`: the operator console is served at `/console/` (docs/console.md); `off`: 404 there. */
  console: z.enum(['on', 'off'], { message: 'expected on or off' }).default(CONFIG_DEFAULTS.console),
  keyServer: z.discriminatedUnion('kind', [embeddedKeyServer, tlsKeyServer]).default({ kind: 'embedded' }),
  /** Where sessions and the replay cache live: this process's memory, or Redis shared by N gateways. */
  sessionStore: z
    .discriminatedUnion('kind', [z.strictObject({ kind: z.literal('memory') }), redisSessionStore])
    .default({ kind: 'memory' }),
  audit: auditLog.default({ kind: 'memory' }),
  auditIntegrity: auditIntegrity.default({
    newChain: false,
    trustedKeys: [],
    checkpointEvery: CONFIG_DEFAULTS.auditCheckpointEvery,
    checkpointSeconds: CONFIG_DEFAULTS.auditCheckpointSeconds,
  }),
});

export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

export const REPLAY_SHARE_DIVISOR = CONFIG_DEFAULTS.replayCacheKeyShareDivisor;
export const REPLAY_PRINCIPAL_SHARE_KEYS = CONFIG_DEFAULTS.replayCachePrincipalShareKeys;

export type ConfigIssue = z.core.$ZodIssue;

/**
 * Validates a configuration object (the one pass every configuration goes through, programmatic or
 * from the environment); the first problem becomes one line, by default naming the setting's path.
 */
export function parseGatewayConfig(
  input: GatewayConfigInput,
  describe: (issue: ConfigIssue) => string = (issue) => `invalid configuration ${issue.path.join('.') || '(root)'}: ${issue.message}`,
): GatewayConfig {
  const result = gatewayConfigSchema.safeParse(input);
  if (result.success) return result.data;
  throw new ConfigError(describe(result.error.issues[0]!));
}
