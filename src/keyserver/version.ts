import { readFileSync } from 'node:fs';

/** The key server's version: the package's, as a daemon reports it (docs/spec.md §4.13). */
export const KEY_SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
