import { type Bytes, toHex } from './base64.js';

/**
 * The page's WebCrypto. Browsers expose `crypto.subtle` only in a secure context (https, or
 * http on localhost/127.0.0.1), so its absence is said plainly rather than failing later.
 */
export function subtle(): SubtleCrypto {
  const found = globalThis.crypto?.subtle;
  if (found === undefined) {
    throw new Error('WebCrypto is not available: serve the page over https (or from localhost)');
  }
  return found;
}

export function randomBytes(length: number): Bytes {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

export async function sha256(data: Uint8Array): Promise<Bytes> {
  return new Uint8Array(await subtle().digest('SHA-256', data as Bytes));
}

/** Lower-case hex SHA-256: how a page may show a key without showing it (never the key itself). */
export async function fingerprint(data: Uint8Array): Promise<string> {
  return toHex(await sha256(data));
}
