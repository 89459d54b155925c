import { parseArgs } from 'node:util';
import { ConfigError } from '../config-error.js';
import { flagProblem } from '../flag-problem.js';
import type { BackupRequest } from './backup-restore.js';

export const BACKUP_USAGE = `Usage: keygate keyserver backup --out FILE [--data PATH | --postgres URL] [options]
       keygate keyserver restore --in FILE [--data PATH | --postgres URL] [options]

backup   Reads every principal, membership, role, key with its ACL, certificate, setting and counter of
         the store in one consistent snapshot (the key server may go on serving) and writes them to
         FILE: readable by its owner only, written whole or not at all, never over an existing file.
         Sealed columns stay sealed; tokens are not kept (a restored store starts with no session).
         The file is authenticated under the master key: a file cut short or altered is refused.
restore  Checks FILE whole (its master key, its authentication, its row counts), then writes every row
         into an empty store in one transaction; a store that holds anything is refused, and a
         refused restore writes nothing. Start the key server on the store afterwards.

Options:
  --out FILE, --in FILE   the backup file
  --data PATH             the SQLite file of the key server (default ./data/keyserver.db, unless
                          TE_KEYSERVER_POSTGRES_URL is set)
  --postgres URL          a PostgreSQL key-server store instead; default TE_KEYSERVER_POSTGRES_URL, or
                          the file TE_KEYSERVER_POSTGRES_URL_FILE names (keeps the password off the
                          command line). A flag wins over the variable
  --master-key-file FILE  the master key, as the key server takes it (or TE_KEYSERVER_MASTER_KEY_FILE,
                          or the key itself in TE_KEYSERVER_MASTER_KEY; with none, the key file beside
                          the data file). A backup is restored with the key it was taken under
  --force                 backup: replace FILE if it exists
  --json                  print the outcome (or the error) as JSON
  -h, --help              this help
`;

const FLAGS = {
  out: { type: 'string' },
  in: { type: 'string' },
  data: { type: 'string' },
  postgres: { type: 'string' },
  'master-key-file': { type: 'string' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface BackupCommand {
  readonly action: 'backup' | 'restore';
  readonly request: BackupRequest;
}

/** Reads `keygate keyserver backup|restore` flags; a bad one throws a ConfigError naming it. */
export function parseBackupArgs(
  action: BackupCommand['action'],
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): BackupCommand | 'help' {
  const values = flagsOf(argv);
  if (values.help) return 'help';
  const own = action === 'backup' ? 'out' : 'in';
  const other = action === 'backup' ? 'in' : 'out';
  if (values[other] !== undefined) throw new ConfigError(`--${other}: ${action} takes --${own} FILE`);
  if (values.force && action === 'restore') throw new ConfigError('--force: only a backup replaces a file');
  const file = nonEmpty(values[own]) ?? fail(`--${own} FILE is required`);
  if (values.data !== undefined && values.postgres !== undefined) throw new ConfigError('--data and --postgres: give one of the two');
  const url = values.data === undefined ? postgresUrlOf(values.postgres, env) : undefined;
  const key = nonEmpty(env.TE_KEYSERVER_MASTER_KEY);
  const keyFile = nonEmpty(values['master-key-file']) ?? nonEmpty(env.TE_KEYSERVER_MASTER_KEY_FILE);
  if (key !== undefined && keyFile !== undefined) {
    throw new ConfigError('TE_KEYSERVER_MASTER_KEY and --master-key-file (or TE_KEYSERVER_MASTER_KEY_FILE): give one of the two');
  }
  return {
    action,
    request: {
      location: url === undefined ? { kind: 'sqlite', path: nonEmpty(values.data) ?? './data/keyserver.db' } : { kind: 'postgres', url },
      keys: { ...(key === undefined ? {} : { key }), ...(keyFile === undefined ? {} : { file: keyFile }) },
      file,
      force: values.force === true,
    },
  };
}

/** True when the raw arguments ask for JSON (looked for before they parse, so a bad flag is JSON too). */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json');
}

function flagsOf(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ConfigError(flagProblem(error));
  }
}

/**
 * The PostgreSQL store: --postgres, else TE_KEYSERVER_POSTGRES_URL (or the file TE_KEYSERVER_POSTGRES_URL_FILE
 * names, read as the gateway reads it), so the password need not be on the command line
 * (docs/deployment.md). The flag wins over the variable; with neither, the SQLite file.
 */
function postgresUrlOf(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (flag !== undefined) return nonEmpty(flag) ?? fail('--postgres: expected a URL');
  const variable = nonEmpty(env.TE_KEYSERVER_POSTGRES_URL);
  if (variable !== undefined && !/^postgres(?:ql)?:\/\/./.test(variable))
    fail('TE_KEYSERVER_POSTGRES_URL: expected a postgres:// or postgresql:// URL');
  return variable;
}

function fail(message: string): never {
  throw new ConfigError(message);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
