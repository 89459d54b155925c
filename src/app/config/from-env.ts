import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../../keyserver/config-error.js';
import { readSeedFile } from '../../keyserver/seed-file.js';
import { type ConfigIssue, type GatewayConfig, type GatewayConfigInput, parseGatewayConfig } from './config.js';
import { parseCorsOrigins, parsePublicOrigin } from './cors-origins.js';
import { withFileVariables } from './env-files.js';
import { CONFIG_VARIABLES, type ConfigVariable, findVariable, type VariableName, type VariableType } from './variables.js';

type Env = Readonly<Record<string, string | undefined>>;

/** How each type of variable turns its text into the value the configuration schema validates. */
const DECODERS = {
  text: z.string(),
  integer: z
    .string()
    .transform((raw, ctx) =>
      /^\d+$/.test(raw) ? Number(raw) : (ctx.addIssue({ code: 'custom', message: 'expected an integer' }), z.NEVER),
    ),
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
  const input = configInput(values, defaults.dataDir);
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

/**
 * How a variable's decoded value becomes its field's value when that is more than the text itself:
 * a file variable is read (the others of type `file` give the file's text), a seed file is parsed.
 */
const READERS: { readonly [N in VariableName]?: (value: NonNullable<Values[N]>, name: N) => unknown } = {
  TE_KEYSERVER_SEED: (path, name) => readSeedFile(path, name),
  TE_GATEWAY_AUDIT_KEY_FILE: (path, name) => readText(path, name).trim(),
  TE_GATEWAY_AUDIT_TRUSTED_KEYS: (paths, name) => paths.filter((path) => path !== '').map((path) => readText(path, name)),
};

/** A variable's value as its field takes it: read through its reader, or from its file, or as decoded. */
function fieldValue(variable: ConfigVariable, value: unknown): unknown {
  const reader = READERS[variable.name as VariableName] as ((value: unknown, name: string) => unknown) | undefined;
  if (reader !== undefined) return reader(value, variable.name);
  return variable.type === 'file' ? readText(value as string, variable.name) : value;
}

type Tree = Record<string, unknown>;

/** Sets `value` at the dotted `path` of `tree`, making the objects on the way. */
function place(tree: Tree, path: string, value: unknown): void {
  const keys = path.split('.');
  const leaf = keys.pop()!;
  let node = tree;
  for (const key of keys) {
    node[key] ??= {};
    node = node[key] as Tree;
  }
  node[leaf] = value;
}

/**
 * The configuration input from the table alone: each set variable's value placed at its `field`, so
 * a variable added to the table reaches the configuration with no other edit. What no one variable
 * holds is derived after: the kinds of key server, session store and audit log (from whether their
 * URL is set) and the data directory every store under it shares. A value placed where its kind
 * takes none is refused by the schema's strict objects, never dropped.
 */
function configInput(values: Values, defaultDataDir?: string): GatewayConfigInput {
  const tree: Tree = {};
  for (const variable of CONFIG_VARIABLES as readonly ConfigVariable[]) {
    const value = values[variable.name as VariableName];
    if (value !== undefined) place(tree, variable.field, fieldValue(variable, value));
  }
  const dataDir = values.TE_GATEWAY_DATA_DIR ?? defaultDataDir;
  const keyServer = (tree.keyServer ?? {}) as Tree;
  const sessionStore = (tree.sessionStore ?? {}) as Tree;
  const audit = (tree.audit ?? {}) as Tree;
  return {
    ...tree,
    keyServer: { kind: keyServer.url === undefined ? 'embedded' : 'tls', ...keyServer, dataDir },
    sessionStore: { kind: sessionStore.url === undefined ? 'memory' : 'redis', ...sessionStore },
    audit: auditKind(audit, dataDir),
    auditIntegrity: { ...(tree.auditIntegrity as Tree | undefined), dataDir },
  } as GatewayConfigInput;
}

/** PostgreSQL with an audit URL; else SQLite in the data directory; else memory. */
function auditKind(audit: Tree, dataDir: string | undefined): Tree {
  if (audit.url !== undefined) return { kind: 'postgres', ...audit };
  return dataDir === undefined ? { kind: 'memory', ...audit } : { kind: 'sqlite', file: join(dataDir, 'audit.db'), ...audit };
}

/** A schema issue as one line naming the variable behind its field (list entries as "key 2 of 3"). */
function describeIssue(issue: ConfigIssue, input: GatewayConfigInput, env: Env): string {
  const field = issue.path.filter((segment) => typeof segment === 'string').join('.');
  const params = (issue as { params?: { fields?: string[]; joiner?: string } }).params;
  const fields = params?.fields;
  if (fields !== undefined) {
    const names = fields.map((name) => variableAt(`${field}.${name}`)?.name ?? name);
    return `${names.join(params?.joiner ?? ' or ')}: ${issue.message}`;
  }
  const variable = variableAt(field);
  if (variable === undefined) return `invalid configuration ${issue.path.join('.') || '(root)'}: ${issue.message}`;
  const index = issue.path.find((segment) => typeof segment === 'number');
  if (index !== undefined) {
    const list = field.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], input) as
      | string
      | unknown[];
    // A `text` variable may hold a list separated by commas (the daemon URLs and their pins).
    const count = typeof list === 'string' ? list.split(',').length : list.length;
    if (variable.type === 'list') return `${variable.name}: key ${index + 1} of ${count} ${issue.message}`;
    return `${variable.name}: entry ${index + 1} of ${count}: ${issue.message}${shown(variable, env[variable.name])}`;
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
