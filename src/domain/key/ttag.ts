import { aliasOf, isAliasName } from '../../wire/alias.js';
import { isStandardBase64 } from '../../wire/base64.js';
import { BadRequestError } from '../errors/common.errors.js';

/** A key handle is base64 of an opaque random buffer of at least 16 bytes (docs/spec.md §1.4). */
export const TTAG_MIN_BYTES = 16;
const TTAG_MAX_BYTES = 256;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Reads a ttag given in standard base64 (bodies) or base64url without padding (paths,
 * docs/spec.md §1.4): its canonical standard-base64 form, or why it is none.
 */
export function readTtag(value: string): { readonly ttag: string } | { readonly fault: 'not base64' | 'not a key handle' } {
  let bytes: Buffer;
  if (isStandardBase64(value)) bytes = Buffer.from(value, 'base64');
  else if (BASE64URL.test(value)) bytes = Buffer.from(value, 'base64url');
  else return { fault: 'not base64' };
  if (bytes.length < TTAG_MIN_BYTES || bytes.length > TTAG_MAX_BYTES) return { fault: 'not a key handle' };
  return { ttag: bytes.toString('base64') };
}

/** `readTtag`, refusing a value that is no ttag with a BAD_REQUEST naming `field`. */
export function parseTtag(value: string, field = 'ttag'): string {
  const read = readTtag(value);
  if ('fault' in read) throw new BadRequestError(`${field}: ${read.fault}`);
  return read.ttag;
}

/**
 * A key as /api names it (docs/spec.md §4.23 item 3): a ttag, read as `readTtag` does, or `alias/<name>`
 * (in a path percent-encoded, `alias%2F<name>`), kept as it is for the key server to resolve. No ttag the
 * key server issues begins with `alias/`; the root surface reads ttags only (`readTtag`).
 */
export function readKeyReference(
  value: string,
): { readonly ttag: string } | { readonly fault: 'not base64' | 'not a key handle' | 'not an alias' } {
  const alias = aliasOf(value);
  if (alias === undefined) return readTtag(value);
  return isAliasName(alias) ? { ttag: value } : { fault: 'not an alias' };
}

/** `readKeyReference`, refusing a value that is neither a ttag nor an alias with a BAD_REQUEST naming `field`. */
export function parseKeyReference(value: string, field = 'ttag'): string {
  const read = readKeyReference(value);
  if ('fault' in read) throw new BadRequestError(`${field}: ${read.fault}`);
  return read.ttag;
}

/** The form used in /api paths: base64url (no padding) of a ttag, `alias%2F<name>` of an alias. */
export function ttagToPath(ttag: string): string {
  const alias = aliasOf(ttag);
  if (alias !== undefined) return `alias%2F${alias}`;
  return Buffer.from(ttag, 'base64').toString('base64url');
}
