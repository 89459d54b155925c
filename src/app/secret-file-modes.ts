import { statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultMasterKeyFile } from '../keyserver/at-rest/master-key-source.js';
import { AUDIT_FILES } from './audit-keys.js';
import { FILE_SUFFIX } from './config/env-files.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Variables of type file whose file holds a secret (a private key, the seed's passwords), beside every `*_FILE`. */
const SECRET_PATH_VARIABLES = ['TE_GATEWAY_KEYSERVER_CLIENT_KEY', 'TE_KEYSERVER_SEED'] as const;

/** What the gateway keeps in its data directory that is secret: the audit keys, the private keys, the master key. */
const DATA_DIR_SECRETS = (dir: string) => [
  ...[AUDIT_FILES.macKey, AUDIT_FILES.signingKey, 'keyserver-client.key', 'keyserver-identity.key'].map((name) => join(dir, name)),
  defaultMasterKeyFile(join(dir, 'keyserver.db')),
];

/** Permission bits that let the file's group or anyone else read it. */
const READABLE_BY_OTHERS = 0o044;

/**
 * One warning per secret file that the file's group or others may read (docs/operations.md "Secrets from
 * files"): every `TE_*_FILE` variable, the client key and the seed, and the keys kept in the data
 * directory. A file that is not there is left to the check that reads it.
 */
export function looseSecretFileWarnings(env: Env, dataDir: string | undefined): string[] {
  const given = Object.entries(env)
    .filter(([name]) => /^TE_\w+$/.test(name) && (name.endsWith(FILE_SUFFIX) || (SECRET_PATH_VARIABLES as readonly string[]).includes(name)))
    .map(([name, path]) => [name, path?.trim()] as const);
  const kept = dataDir === undefined ? [] : DATA_DIR_SECRETS(dataDir).map((path) => ['TE_GATEWAY_DATA_DIR', path] as const);
  const warnings: string[] = [];
  for (const [setting, path] of [...given, ...kept]) {
    if (path === undefined || path === '') continue;
    const mode = modeOf(path);
    if (mode === undefined || (mode & READABLE_BY_OTHERS) === 0) continue;
    const shown = (mode & 0o777).toString(8).padStart(4, '0');
    warnings.push(`${setting}: ${path} holds a secret and is readable by its group or others (mode ${shown}); run: chmod 600 ${path}`);
  }
  return warnings;
}

function modeOf(path: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.mode : undefined;
  } catch {
    return undefined;
  }
}
