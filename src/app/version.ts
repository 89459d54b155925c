import { readFileSync } from 'node:fs';

/** The gateway's version, from its package.json; the /api surface's version is API_VERSION. */
export const GATEWAY_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export const API_VERSION = '8.1.0';
