import { join } from 'node:path';
import { defaultMasterKeyFile } from '../keyserver/at-rest/master-key-source.js';
import { looseSecretFileWarning } from '../keyserver/at-rest/secret-file-mode.js';
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

/**
 * One warning per secret file that the file's group or others may read (docs/operations.md "Secrets from
 * files"): every `TE_*_FILE` variable, the client key and the seed, and the keys kept in the data
 * directory. A file that is not there is left to the check that reads it.
 */
export function looseSecretFileWarnings(env: Env, dataDir: string | undefined): string[] {
  const given = Object.entries(env)
    .filter(
      ([name]) => /^TE_\w+$/.test(name) && (name.endsWith(FILE_SUFFIX) || (SECRET_PATH_VARIABLES as readonly string[]).includes(name)),
    )
    .map(([name, path]) => [name, path?.trim()] as const);
  const kept = dataDir === undefined ? [] : DATA_DIR_SECRETS(dataDir).map((path) => ['TE_GATEWAY_DATA_DIR', path] as const);
  const warnings: string[] = [];
  for (const [setting, path] of [...given, ...kept]) {
    const warning = path === undefined || path === '' ? undefined : looseSecretFileWarning(setting, path);
    if (warning !== undefined) warnings.push(warning);
  }
  return warnings;
}
