/** Value checks the configuration schema refines with (config.ts). */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/** `https://host[:port]` and nothing more: the daemon's paths are the protocol's own. */
export function isHttpsOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === 'https:' &&
    url.hostname !== '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === ''
  );
}

/** A Redis URL ioredis can dial: `redis:` or `rediss:` with a host. */
export function isRedisUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && /^\/?\d*$/.test(url.pathname) && url.hash === ''
  );
}

/** Standard base64 (padding optional) of exactly 32 bytes: one AES-256 session key. */
export function isSessionKey(value: string): boolean {
  return /^[A-Za-z0-9+/]{43}=?$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

/** PEM text whose first certificate parses. */
export function isCertificatePem(value: string): boolean {
  try {
    new X509Certificate(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when `keyPem` is the private key of the first certificate of `certPem` (both parse): TLS would
 * otherwise refuse the pair at the first connection, with an OpenSSL message naming neither file.
 */
export function isKeyOfCertificate(certPem: string, keyPem: string): boolean {
  try {
    return new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return false;
  }
}

/** An IPv4 or IPv6 address, optionally with a prefix length (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrCidr(value: string): boolean {
  const [address = '', prefix, extra] = value.trim().split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
