/**
 * Byte and text encodings the client needs, with what every browser has (btoa, atob, TextEncoder):
 * standard base64 for bodies (docs/spec.md §1.4), base64url without padding for proofs (RFC 7515 §2) and
 * for ttags in paths (docs/spec.md §1.4).
 */

/** Bytes the WebCrypto and fetch signatures accept (a plain ArrayBuffer behind them). */
export type Bytes = Uint8Array<ArrayBuffer>;

const CHUNK = 0x8000;

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/** Decodes standard base64 or base64url; throws a TypeError on anything else. */
export function fromBase64(text: string): Bytes {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw new TypeError('not base64');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function toBase64url(bytes: Uint8Array): string {
  return base64ToBase64url(toBase64(bytes));
}

/** The same bytes in the URL-safe alphabet, without padding (a ttag as a path segment). */
export function base64ToBase64url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function utf8(text: string): Bytes {
  return new TextEncoder().encode(text) as Bytes;
}

export function fromUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
