import { basename, dirname, extname, join } from 'node:path';
import { defaultMasterKeyFile } from '../at-rest/master-key-source.js';
import { looseSecretFileWarning } from '../at-rest/secret-file-mode.js';
import type { DaemonOptions } from './daemon-options.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * One warning per secret file of a daemon that its group or others may read (docs/operations.md
 * "Secrets from files"): its TLS key, its seed (passwords), its master key file, every
 * `TE_KEYSERVER_*_FILE` variable, and the identity key and master key it keeps beside its SQLite file.
 * Called once the daemon has started, so what it generated is checked too.
 */
export function daemonSecretFileWarnings(options: DaemonOptions, env: Env): string[] {
  const files: [setting: string, path: string | undefined][] = [
    ['--key', options.identity?.keyPath],
    ['--seed', options.seedFile],
    ['--master-key-file', options.masterKeyFile],
    ...Object.entries(env).filter(([name]) => /^TE_KEYSERVER_\w+_FILE$/.test(name)),
  ];
  if (options.postgresUrl === undefined && options.dataPath !== ':memory:') {
    const stem = join(dirname(options.dataPath), basename(options.dataPath, extname(options.dataPath)));
    if (options.identity === undefined) files.push(['--data', `${stem}.identity.key`]);
    if (options.masterKey === undefined && options.masterKeyFile === undefined)
      files.push(['--data', defaultMasterKeyFile(options.dataPath)]);
  }
  const warnings: string[] = [];
  for (const [setting, path] of files) {
    const warning = path === undefined || path.trim() === '' ? undefined : looseSecretFileWarning(setting, path.trim());
    if (warning !== undefined && !warnings.includes(warning)) warnings.push(warning);
  }
  return warnings;
}
