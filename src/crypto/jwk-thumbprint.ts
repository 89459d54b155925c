import { hash } from 'node:crypto';

/**
 * The RFC 7638 thumbprint (SHA-256, base64url) of a public key: the `jkt` a bound session carries
 * (RFC 9449 §6.1) and the name a proof key is cached under. The required members in lexicographic
 * order, no whitespace: EC `crv`, `kty`, `x`, `y`; RSA `e`, `kty`, `n` (RFC 7638 §3.2); OKP `crv`, `kty`,
 * `x` (RFC 8037 §2). Synchronous,
 * so it costs no trip through the crypto thread pool on the hot path of every bound request.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7638#section-3
 */
export function jwkThumbprint(jwk: Readonly<Record<string, unknown>>): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: 'EC', x: jwk.x, y: jwk.y }
      : jwk.kty === 'OKP'
        ? { crv: jwk.crv, kty: 'OKP', x: jwk.x }
        : { e: jwk.e, kty: 'RSA', n: jwk.n };
  return hash('sha256', JSON.stringify(members), 'base64url');
}
