import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { ConfigError } from '../config-error.js';
import { generateMasterKey, type MasterKey, MasterKeyring, masterKeyOf } from './master-keys.js';

/** Where the master keys of a key-server data file come from. */
export interface MasterKeySettings {
  /** SQLite file of the engine, or `:memory:`. */
  readonly dataPath: string;
  /** The engine's store in PostgreSQL instead (`keygate keyserver rotate-master-key --postgres`). */
  readonly postgresUrl?: string;
  /** TE_KEYSERVER_MASTER_KEY: base64 of 32 bytes; several, comma-separated, the first sealing. */
  readonly key?: string;
  /** --master-key-file / TE_KEYSERVER_MASTER_KEY_FILE: one base64 key per line, the first sealing. */
  readonly file?: string;
}

export interface MasterKeySource {
  readonly keyring: MasterKeyring;
  /** The file the keys were read from (or generated into); absent for the environment and `:memory:`. */
  readonly file?: string;
  /** Set when a new key was generated beside the data file: the caller prints it as a warning. */
  readonly warning?: string;
}

/** The key file kept beside a data file when none is given: `ks.db` -> `ks.master.key`. */
export function defaultMasterKeyFile(dataPath: string): string {
  return join(dirname(dataPath), `${basename(dataPath, extname(dataPath))}.master.key`);
}

/**
 * The keyring of a data file: from the variable, or the given file, or the file beside the data file
 * (generated on first use, readable by its owner only, with a warning: a copy of the directory then
 * holds both the data and its key). `:memory:` without a key gets a key of its own that dies with it.
 */
export function loadMasterKeys(settings: MasterKeySettings): MasterKeySource {
  if (settings.key !== undefined && settings.file !== undefined) {
    throw new ConfigError('TE_KEYSERVER_MASTER_KEY and a master key file: give one of the two');
  }
  if (settings.key !== undefined) return { keyring: new MasterKeyring(parseKeys(settings.key.split(','), 'TE_KEYSERVER_MASTER_KEY')) };
  if (settings.file !== undefined) {
    if (!existsSync(settings.file)) throw new ConfigError(`master key file ${settings.file}: not found`);
    return { keyring: readKeyFile(settings.file), file: settings.file };
  }
  if (settings.dataPath === ':memory:') return { keyring: new MasterKeyring([generateMasterKey()]) };
  const file = defaultMasterKeyFile(settings.dataPath);
  if (existsSync(file)) return { keyring: readKeyFile(file), file };
  const key = generateMasterKey();
  writeKeyFile(file, [key]);
  const warning = `generated master key ${key.id} in ${file}: keep it apart from the data file (--master-key-file or TE_KEYSERVER_MASTER_KEY), or a copy of the directory yields every key`;
  return { keyring: new MasterKeyring([key]), file, warning };
}

export function readKeyFile(file: string): MasterKeyring {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  return new MasterKeyring(parseKeys(lines, `master key file ${file}`));
}

/** Replaces the key file in one step (a temporary file renamed over it), readable by its owner only. */
export function writeKeyFile(file: string, keys: readonly MasterKey[]): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, keys.map((key) => `${key.key.toString('base64')}\n`).join(''), { mode: 0o600 });
  renameSync(temporary, file);
}

function parseKeys(entries: readonly string[], where: string): MasterKey[] {
  const keys = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
  const problem = keysProblem(keys);
  if (problem !== undefined) throw new ConfigError(`${where}: ${problem}`);
  return keys.map((entry) => masterKeyOf(Buffer.from(entry, 'base64')));
}

function keysProblem(keys: readonly string[]): string | undefined {
  if (keys.length === 0) return 'no key (expected base64 of 32 bytes)';
  const bad = keys.findIndex((entry) => !/^[A-Za-z0-9+/]+={0,2}$/.test(entry) || Buffer.from(entry, 'base64').length !== 32);
  if (bad === -1) return undefined;
  return keys.length === 1 ? 'expected base64 of 32 bytes' : `key ${bad + 1} of ${keys.length}: expected base64 of 32 bytes`;
}

/** What is wrong with a TE_KEYSERVER_MASTER_KEY value (comma-separated keys), in words that never repeat it; undefined when it is good. */
export function masterKeyListProblem(value: string): string | undefined {
  return keysProblem(
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  );
}

/** What is wrong with a master key file (missing, unreadable, or not one good key per line); undefined when it is good. */
export function masterKeyFileProblem(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'not found' : `cannot read it (${code ?? 'error'})`;
  }
  return keysProblem(
    text
      .split(/\r?\n/)
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  );
}
