import { parseArgs } from 'node:util';
import { ConfigError } from '../config-error.js';
import { readSeedFile, type PrincipalSeed } from '../seed-file.js';

/** How `keygate keyserver` runs. */
export interface DaemonOptions {
  readonly host: string;
  readonly port: number;
  /** SQLite file of the engine, or `:memory:`. */
  readonly dataPath: string;
  /** A given certificate and key (PEM); absent: generated on first start, kept beside the data file. */
  readonly identity?: { readonly certPath: string; readonly keyPath: string };
  readonly tokenTtlSeconds?: number;
  readonly seed?: PrincipalSeed;
  readonly adminPassword?: string;
}

export const DAEMON_USAGE = `Usage: keygate keyserver [options]

Serves the key-server engine over TLS 1.3 (JSON over HTTPS, docs/keyserver-protocol.md).

Options:
  --host HOST             listen address (default 127.0.0.1)
  --port PORT             listen port (default 8443; 0 picks a free one)
  --data PATH             SQLite file of principals, keys, ACLs and tokens (default ./data/keyserver.db;
                          :memory: keeps nothing)
  --cert PATH, --key PATH the TLS certificate and private key (PEM); without them a self-signed identity
                          is generated on first start and kept beside the data file
  --token-ttl SECONDS     lifetime of an issued token (default: never expires)
  --seed FILE             JSON file {"principals":[...]} of principals to create; existing ones are kept
  --admin-password PW     password of the bootstrap user "admin" (or TE_KEYSERVER_ADMIN_PASSWORD; the
                          variable keeps it out of the process list)
  --help                  this text
With neither a seed nor an admin password, and no "admin" yet, the users "admin" and "guest" are
created with generated passwords, printed once. At start the daemon prints one line:
  keygate keyserver: listening url=https://HOST:PORT port=PORT fingerprint=SHA256HEX
`;

const FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  data: { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'token-ttl': { type: 'string' },
  seed: { type: 'string' },
  'admin-password': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Reads the daemon's flags (and TE_KEYSERVER_ADMIN_PASSWORD). Answers 'help' for --help; a bad flag
 * or value throws a ConfigError whose message is one line naming it.
 */
export function parseDaemonArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): DaemonOptions | 'help' {
  const values = readFlags(argv);
  if (values.help) return 'help';
  if ((values.cert === undefined) !== (values.key === undefined)) throw new ConfigError('--cert and --key go together');
  const ttl = values['token-ttl'] === undefined ? undefined : integer('--token-ttl', values['token-ttl'], 1, 10 * 365 * 86_400);
  const adminPassword = values['admin-password'] ?? nonEmpty(env.TE_KEYSERVER_ADMIN_PASSWORD);
  if (adminPassword === '') throw new ConfigError('--admin-password: must not be empty');
  return {
    host: nonEmpty(values.host) ?? '127.0.0.1',
    port: values.port === undefined ? 8443 : integer('--port', values.port, 0, 65_535),
    dataPath: nonEmpty(values.data) ?? './data/keyserver.db',
    ...(values.cert !== undefined && values.key !== undefined ? { identity: { certPath: values.cert, keyPath: values.key } } : {}),
    ...(ttl === undefined ? {} : { tokenTtlSeconds: ttl }),
    ...(values.seed === undefined ? {} : { seed: readSeedFile(values.seed, '--seed') }),
    ...(adminPassword === undefined ? {} : { adminPassword }),
  };
}

function readFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ConfigError(flagProblem(error));
  }
}

function flagProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const flag = /'(-[^']*)'/.exec(message ?? '')?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${flag}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `option ${flag.split(' ')[0]} needs a value`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${/'([^']*)'/.exec(message ?? '')?.[1] ?? ''}`;
  return (message ?? 'bad arguments').split('\n')[0]!;
}

function integer(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${flag}: expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
