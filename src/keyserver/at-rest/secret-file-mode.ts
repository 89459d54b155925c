import { statSync } from 'node:fs';

/** Permission bits that let a file's group or anyone else read it. */
const READABLE_BY_OTHERS = 0o044;

/**
 * The warning for a file holding a secret that its group or others may read (docs/operations.md
 * "Secrets from files"), naming the setting that gave it and the chmod that fixes it; undefined when
 * only its owner may read it, or when it is not there (the check that reads it says so).
 */
export function looseSecretFileWarning(setting: string, path: string): string | undefined {
  const mode = modeOf(path);
  if (mode === undefined || (mode & READABLE_BY_OTHERS) === 0) return undefined;
  const shown = (mode & 0o777).toString(8).padStart(4, '0');
  return `${setting}: ${path} holds a secret and is readable by its group or others (mode ${shown}); run: chmod 600 ${path}`;
}

function modeOf(path: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.mode : undefined;
  } catch {
    return undefined;
  }
}
