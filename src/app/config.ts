import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { parseCorsOrigins, parsePublicOrigin } from './cors-origins.js';
import { isCertificatePem, isHttpsOrigin, isRedisUrl, isSessionKey } from './config-checks.js';
import { normaliseFingerprint } from '../keyserver/identity/identity-certificate.js';
import { principalSeedSchema } from '../keyserver/seed-file.js';

export { ConfigError };

/** Every default of the configuration, in one place: the schema below and `keygate --help` read them. */
export const CONFIG_DEFAULTS = {
  host: '127.0.0.1',
  port: 8080,
  /** 12 hours. */
  sessionTtlSeconds: 43_200,
  logLevel: 'info',
  replayCacheSize: 100_000,
  keyServerTimeoutMs: 5_000,
  redisTimeoutMs: 1_000,
  auditTimeoutMs: 2_000,
  redisKeyPrefix: 'keygate:',
  /** Where `keygate serve` keeps its data when TE_GATEWAY_DATA_DIR is unset (the library keeps none). */
  cliDataDir: './data',
} as const;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An integer from `min` to `max`, refused with one message naming the range. */
function integerIn(min: number, max: number) {
  const message = `expected an integer from ${min} to ${max}`;
  return z.number({ message }).int(message).min(min, message).max(max, message);
}

const embeddedKeyServer = z.strictObject({
  kind: z.literal('embedded'),
  /** Principals to create at start (the seed file's content). */
  seed: principalSeedSchema.optional(),
  /** Password of the bootstrap user `admin`. */
  adminPassword: z.string().min(1).optional(),
  /** Token lifetime in seconds; absent: tokens never expire. */
  tokenTtlSeconds: integerIn(1, Number.MAX_SAFE_INTEGER).optional(),
  /** Where the engine keeps its identity certificate across restarts; absent: in memory only. */
  dataDir: z.string().min(1).optional(),
});

/**
 * A key-server daemon reached over TLS 1.3 (architecture.md "The key server"). Trust is exactly one
 * of a CA certificate (PEM) or a pinned SHA-256 fingerprint of the daemon's certificate.
 */
const tlsKeyServer = z
  .strictObject({
    kind: z.literal('tls'),
    /** `https://host[:port]`, nothing after the authority. */
    url: z.string().refine(isHttpsOrigin, 'expected https://host[:port]'),
    /** PEM of the CA (or the daemon's own self-signed certificate) to validate the daemon against. */
    ca: z.string().refine(isCertificatePem, 'holds no PEM certificate').optional(),
    /** SHA-256 of the daemon certificate's DER, hex with or without colons. */
    fingerprint: z
      .string()
      .transform((value, ctx) => normaliseFingerprint(value) ?? (ctx.addIssue({ code: 'custom', message: 'expected 64 hex digits' }), z.NEVER))
      .optional(),
    /** Bound on one gateway request's whole time at the daemon (connecting and all its calls), in ms. */
    timeoutMs: integerIn(1, 600_000).default(CONFIG_DEFAULTS.keyServerTimeoutMs),
    /** TLS 1.3 session resumption across the per-request connections. */
    resumeSessions: z.boolean().default(true),
  })
  .refine((value) => (value.ca === undefined) !== (value.fingerprint === undefined), {
    message: 'exactly one of ca or fingerprint is required',
    // `params.fields` lets the environment reader name both variables.
    params: { fields: ['ca', 'fingerprint'] },
  });

/**
 * Sessions and the proof replay cache in Redis, shared by every gateway pointing at it (architecture.md
 * "scale-out"). The key-server token in each record is sealed with AES-256-GCM under `sessionKeys`.
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

/** Everything `createGateway` needs. The CLI builds it from `TE_*` variables; an embedding service passes it. */
export const gatewayConfigSchema = z.strictObject({
  host: z.string().min(1).default(CONFIG_DEFAULTS.host),
  port: integerIn(0, 65_535).default(CONFIG_DEFAULTS.port),
  /** Lifetime of a gateway session in seconds. */
  sessionTtlSeconds: integerIn(1, Number.MAX_SAFE_INTEGER).default(CONFIG_DEFAULTS.sessionTtlSeconds),
  logLevel: z.enum(LOG_LEVELS, { message: `expected one of ${LOG_LEVELS.join(', ')}` }).default(CONFIG_DEFAULTS.logLevel),
  /** Browser origins allowed cross-origin access (seed 001 "Browser access"); empty: no CORS at all. */
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
   * The origin clients address when a TLS-terminating proxy sits in front (seed 001 §5): the proof's
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
  /** Bound of the proof replay cache (seed 001 §8); when full, new proofs are refused with 503. */
  replayCacheSize: integerIn(1, Number.MAX_SAFE_INTEGER).default(CONFIG_DEFAULTS.replayCacheSize),
  /** Port of the Prometheus metrics listener (`GET /metrics`, on `host`); absent: no metrics listener. */
  metricsPort: integerIn(0, 65_535).optional(),
  keyServer: z.discriminatedUnion('kind', [embeddedKeyServer, tlsKeyServer]).default({ kind: 'embedded' }),
  /** Where sessions and the replay cache live: this process's memory, or Redis shared by N gateways. */
  sessionStore: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('memory') }), redisSessionStore]).default({ kind: 'memory' }),
  audit: auditLog.default({ kind: 'memory' }),
});

export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

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
