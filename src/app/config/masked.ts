import { CONFIG_VARIABLES, type ConfigVariable } from './variables.js';

/** What a masked value is shown as. */
export const MASK = '[redacted]';

/** The fields of every variable the table marks secret: a password, a key, or a URL that may hold one. */
const SECRET_FIELDS = new Set(
  (CONFIG_VARIABLES as readonly ConfigVariable[]).filter((variable) => variable.secret).map((variable) => variable.field),
);

/** A field named for a secret wherever it sits (a seed principal's `password`, `clientKey`, `sessionKeys`). */
const SECRET_NAME = /password|secret|(?:^|[a-z])(?:keys?|token)$/i;

/**
 * A configuration as it may be shown (`keygate serve --print-config`): the value of every secret
 * variable's field, every field named for a password or a key, any text holding a private key, and the
 * user and password of any URL are replaced by MASK. Nothing else is changed.
 */
export function maskedConfig(config: unknown): unknown {
  return mask(config, '', '');
}

function mask(value: unknown, path: string, name: string): unknown {
  if (value === undefined) return undefined;
  if (SECRET_FIELDS.has(path as ConfigVariable['field']) || SECRET_NAME.test(name)) {
    // A list keeps its length (how many keys are configured), never an entry.
    return Array.isArray(value) ? value.map(() => MASK) : MASK;
  }
  if (Array.isArray(value)) return value.map((entry) => mask(entry, path, ''));
  if (typeof value === 'string') return maskText(value);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, mask(entry, path === '' ? key : `${path}.${key}`, key)]));
}

/** Text holding a private key is masked whole; a URL keeps everything but its user and password. */
function maskText(text: string): string {
  if (/PRIVATE KEY/.test(text)) return MASK;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  try {
    const url = new URL(text);
    if (url.username === '' && url.password === '') return text;
    return `${url.protocol}//${MASK}@${url.host}${url.pathname}${url.search}${url.hash}`;
  } catch {
    return text;
  }
}
