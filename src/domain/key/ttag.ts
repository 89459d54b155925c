import { isStandardBase64 } from '../../wire/base64.js';
import { BadRequestError } from '../errors/common.errors.js';

/** A key handle is base64 of an opaque random buffer of at least 16 bytes (docs/spec.md §1.4). */
export const TTAG_MIN_BYTES = 16;
const TTAG_MAX_BYTES = 256;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Reads a ttag given in standard base64 (bodies) or base64url without padding (paths,
 * docs/spec.md §1.4) and returns its canonical standard-base64 form.
 */
export function parseTtag(value: string, field = 'ttag'): string {
  let bytes: Buffer;
  if (isStandardBase64(value)) bytes = Buffer.from(value, 'base64');
  else if (BASE64URL.test(value)) bytes = Buffer.from(value, 'base64url');
  else throw new BadRequestError(`${field}: not base64`);
  if (bytes.length < TTAG_MIN_BYTES || bytes.length > TTAG_MAX_BYTES) {
    throw new BadRequestError(`${field}: not a key handle`);
  }
  return bytes.toString('base64');
}

/** The base64url (no padding) form used in /api paths. */
export function ttagToPath(ttag: string): string {
  return Buffer.from(ttag, 'base64').toString('base64url');
}
