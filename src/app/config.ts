import { z } from 'zod';

/** A configuration that cannot start the gateway. The message names the setting. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const principalSeedSchema = z.strictObject({
  principals: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        kind: z.enum(['user', 'group', 'service']),
        password: z.string().min(1).optional(),
        roles: z.array(z.string().min(1)).optional(),
        displayName: z.string().optional(),
      }),
    )
    .max(10_000),
});
export type PrincipalSeed = z.infer<typeof principalSeedSchema>;

const embeddedKeyServer = z.strictObject({
  kind: z.literal('embedded'),
  /** Principals to create at start (the seed file's content). */
  seed: principalSeedSchema.optional(),
  /** Password of the bootstrap user `admin`. */
  adminPassword: z.string().min(1).optional(),
  /** Token lifetime in seconds; absent: tokens never expire. */
  tokenTtlSeconds: z.number().int().positive().optional(),
  /** Where the engine keeps its identity certificate across restarts; absent: in memory only. */
  dataDir: z.string().min(1).optional(),
});

const milliseconds = z.number().int().min(1).max(600_000);

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
    schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a plain lower-case identifier').optional(),
    connectTimeoutMs: milliseconds.optional(),
    statementTimeoutMs: milliseconds.optional(),
  }),
]);

/** Everything `createGateway` needs. The CLI builds it from `TE_*` variables; an embedding service passes it. */
export const gatewayConfigSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65_535).default(8080),
  /** Lifetime of a gateway session in seconds (12 hours by default). */
  sessionTtlSeconds: z.number().int().positive().default(43_200),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  keyServer: embeddedKeyServer.default({ kind: 'embedded' }),
  audit: auditLog.default({ kind: 'memory' }),
});

export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

/** Validates a configuration object; the first problem becomes one line naming the setting. */
export function parseGatewayConfig(input: GatewayConfigInput): GatewayConfig {
  const result = gatewayConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ConfigError(`invalid configuration ${issue.path.join('.') || '(root)'}: ${issue.message}`);
}
