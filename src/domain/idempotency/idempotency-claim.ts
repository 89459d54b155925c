import { createHash } from 'node:crypto';
import type { IdempotencyClaim } from '../../wire/crypto-messages.js';
import { BadRequestError } from '../errors/common.errors.js';

/** docs/spec.md §4.22 item 7: 1..255 visible ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The `Idempotency-Key` header's key. The IETF httpapi draft sends it as a Structured Field string
 * (RFC 8941 §3.3.3, `"8e03978e-..."`); its quotes (and the backslash escapes within) are taken off, a
 * bare value (not starting with a quote) is taken as it is. Anything that is not 1..255 visible ASCII characters is BAD_REQUEST.
 */
export function parseIdempotencyKey(header: string): string {
  const value = header.trim();
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(value);
  const key = quoted === null ? value : quoted[1]!.replace(/\\(["\\])/g, '$1');
  if ((quoted === null && value.startsWith('"')) || !IDEMPOTENCY_KEY.test(key))
    throw new BadRequestError('Idempotency-Key: 1..255 visible ASCII characters');
  return key;
}

/**
 * The claim a create or rotate carries to the key server: the key, and the request's fingerprint,
 * base64url SHA-256 of `METHOD path\n` and the canonical JSON of its body (object keys sorted, no
 * spaces; no body is the empty text). Two requests are the same request when their fingerprints are.
 */
export function idempotencyClaim(key: string, method: string, path: string, body: unknown): IdempotencyClaim {
  const text = `${method.toUpperCase()} ${path}\n${body === undefined ? '' : canonicalJson(body)}`;
  return { key, fingerprint: createHash('sha256').update(text).digest('base64url') };
}

/** JSON with every object's keys in code-point order and undefined members left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .filter((name) => (value as Record<string, unknown>)[name] !== undefined)
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
