import { readFileSync } from 'node:fs';
import { ConfigError } from '../../keyserver/config-error.js';
import { CONFIG_VARIABLES } from './variables.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The suffix naming a file that holds a variable's value (Docker and Kubernetes secrets). */
export const FILE_SUFFIX = '_FILE';

/**
 * True for `<declared variable>_FILE`: every declared variable has a file variant. A name declared in
 * its own right (TE_KEYSERVER_MASTER_KEY_FILE, TE_GATEWAY_AUDIT_KEY_FILE: files the gateway or a key
 * rotation reads and writes as files) keeps its own meaning.
 */
export function isFileVariant(name: string): boolean {
  if (!name.endsWith(FILE_SUFFIX) || CONFIG_VARIABLES.some((variable) => variable.name === name)) return false;
  return CONFIG_VARIABLES.some((variable) => `${variable.name}${FILE_SUFFIX}` === name);
}

/**
 * `env` with each `<NAME>_FILE` (NAME a declared variable) replaced by NAME set to the file's content,
 * trailing newline trimmed: a password, a session key, an audit URL or a master key need not sit in
 * the environment. Both set, or an unreadable file, stop the boot with a line naming the variable
 * (never the content).
 */
export function withFileVariables(env: Env): Env {
  // Only the names present are looked at: a variable that is not set is never asked for.
  const fileNames = Object.keys(env).filter(isFileVariant);
  if (fileNames.length === 0) return env;
  const resolved: Record<string, string | undefined> = { ...env };
  for (const fileName of fileNames) {
    const name = fileName.slice(0, -FILE_SUFFIX.length);
    const path = resolved[fileName]?.trim();
    if (path === undefined || path === '') continue;
    if (resolved[name]?.trim()) throw new ConfigError(`${fileName}: set it or ${name}, not both`);
    try {
      resolved[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      throw new ConfigError(`${fileName}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    delete resolved[fileName];
  }
  return resolved;
}
