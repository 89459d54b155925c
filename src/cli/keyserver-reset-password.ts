import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { backupKeyring } from '../keyserver/backup/backup-keyring.js';
import type { StoreLocation } from '../keyserver/backup/open-durable-store.js';
import { ConfigError } from '../keyserver/config-error.js';
import type { EngineStore } from '../keyserver/engine/engine-store.port.js';
import { flagProblem } from '../keyserver/flag-problem.js';

export const RESET_PASSWORD_USAGE = `Usage: keygate keyserver reset-password PRINCIPAL [--data PATH | --postgres URL] [--master-key-file FILE]

Gives PRINCIPAL (a user or a service, "admin" when the operator is locked out) a new generated password
on the key server's store, offline, and prints it once. The principal's sessions and tokens end; its
roles, and whether it is disabled, stay as they are. The store must be served by no process: on a
SQLite file it is refused while a key server or a gateway holds its writer lock, on PostgreSQL while any
key server serves the store (stop them first, start them again afterwards).

Options:
  --data PATH             the SQLite file of the key server (default ./data/keyserver.db: the store of
                          "keygate serve" with its default data directory)
  --postgres URL          a PostgreSQL key-server store instead (or TE_KEYSERVER_POSTGRES_URL, or its
                          _FILE form, which keep the database password off the command line)
  --master-key-file FILE  the master key, as the key server takes it (or TE_KEYSERVER_MASTER_KEY_FILE, or
                          the key itself in TE_KEYSERVER_MASTER_KEY; with none, the key file beside the
                          data file)
  -h, --help              this help
`;

const FLAGS = {
  data: { type: 'string' },
  postgres: { type: 'string' },
  'master-key-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Output {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

interface ResetRequest {
  readonly name: string;
  readonly location: StoreLocation;
  readonly keys: { readonly key?: string; readonly file?: string };
}

/**
 * `keygate keyserver reset-password PRINCIPAL` (docs/operations.md "Locked out: an offline password
 * reset"). A bad command line exits 2; a refused reset (a store in use, no such principal, no master
 * key) exits 1; either is one line on stderr.
 */
export async function runResetPassword(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: Output,
): Promise<number> {
  let request: ResetRequest | 'help';
  try {
    request = parseResetArgs(argv, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(`keygate: reset-password: ${error.message} (run "keygate keyserver reset-password --help" for the usage)\n`);
    return 2;
  }
  if (request === 'help') {
    io.out(RESET_PASSWORD_USAGE);
    return 0;
  }
  try {
    const { password, disabled } = await reset(request);
    const note = disabled ? ' (the principal is disabled: enable it with PUT /api/principals/NAME)' : '';
    io.out(`keygate keyserver: new password for "${request.name}" (shown once): ${password}${note}\n`);
    return 0;
  } catch (error) {
    const line = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'failed';
    io.err(`keygate: reset-password: ${line.startsWith('reset-password: ') ? line.slice('reset-password: '.length) : line}\n`);
    return 1;
  }
}

function parseResetArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ResetRequest | 'help' {
  const { values, positionals } = flagsOf(argv);
  if (values.help) return 'help';
  const [name, extra] = positionals;
  if (name === undefined || name.trim() === '') throw new ConfigError('PRINCIPAL is required');
  if (extra !== undefined) throw new ConfigError(`one principal at a time, got "${extra}" too`);
  const postgres = nonEmpty(values.postgres) ?? (values.data === undefined ? nonEmpty(env.TE_KEYSERVER_POSTGRES_URL) : undefined);
  if (values.data !== undefined && values.postgres !== undefined) throw new ConfigError('--data and --postgres: give one of the two');
  const key = nonEmpty(env.TE_KEYSERVER_MASTER_KEY);
  const file = nonEmpty(values['master-key-file']) ?? nonEmpty(env.TE_KEYSERVER_MASTER_KEY_FILE);
  if (key !== undefined && file !== undefined)
    throw new ConfigError('TE_KEYSERVER_MASTER_KEY and --master-key-file (or TE_KEYSERVER_MASTER_KEY_FILE): give one of the two');
  return {
    name,
    location:
      postgres === undefined
        ? { kind: 'sqlite', path: nonEmpty(values.data) ?? './data/keyserver.db' }
        : { kind: 'postgres', url: postgres },
    keys: { ...(key === undefined ? {} : { key }), ...(file === undefined ? {} : { file }) },
  };
}

/** Holds the store for writing (its writer lock, or the exclusive serving lock on PostgreSQL), then resets. */
async function reset(request: ResetRequest): Promise<{ password: string; disabled: boolean }> {
  const { location } = request;
  if (location.kind === 'sqlite' && (location.path === ':memory:' || !existsSync(location.path)))
    throw new ConfigError(`${location.path}: not found`);
  const keyring = backupKeyring(location, request.keys);
  if (keyring === undefined)
    throw new ConfigError('no master key: give TE_KEYSERVER_MASTER_KEY or --master-key-file (the key the store is sealed under)');
  const { resetPassword } = await import('../keyserver/engine/reset-password.js');
  const random = { bytes: (length: number) => randomBytes(length) };
  if (location.kind === 'postgres') {
    const { PostgresEngineStore } = await import('../keyserver/store/postgres-engine-store.js');
    // Exclusive: refused while any key server serves the store, and none starts until this is done.
    const store = await PostgresEngineStore.open({ url: location.url, keyring, servingLock: 'exclusive' });
    return closing(store, () => resetPassword(store, request.name, random));
  }
  const { WriterLock, storeLockFile } = await import('../keyserver/at-rest/writer-lock.js');
  const { SqliteEngineStore } = await import('../keyserver/store/sqlite-engine-store.js');
  const lock = WriterLock.acquire(storeLockFile(location.path), 'reset-password', location.path);
  try {
    const store = new SqliteEngineStore(location.path, keyring);
    return await closing(store, () => resetPassword(store, request.name, random));
  } finally {
    lock.release();
  }
}

async function closing<T>(store: EngineStore, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await store.close();
  }
}

function flagsOf(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new ConfigError(flagProblem(error));
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
