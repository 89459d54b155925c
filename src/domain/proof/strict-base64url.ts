const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Decodes strict base64url (RFC 7515 §2, RFC 4648 §5): the URL-safe alphabet only, no padding, no
 * stray characters, at least one character, and the canonical encoding of the bytes it carries, so
 * that no two spellings of one value exist (not even through the unused low bits of the last
 * character). Returns undefined for anything else.
 */
export function decodeStrictBase64url(value: string): Buffer | undefined {
  if (!BASE64URL.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64url');
  return bytes.toString('base64url') === value ? bytes : undefined;
}
