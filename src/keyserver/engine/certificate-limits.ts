import type { X509Certificate } from 'node:crypto';

/**
 * What a submitted bundle may hold, checked before any path is built or any signature verified: a
 * certificate login is unauthenticated, so the work one request can cause is bounded here.
 */
export const BUNDLE_LIMITS = {
  /** The leaf and at most four intermediates. */
  certificates: 5,
  /** The submitted PEM text, all certificates together. */
  pemChars: 65_536,
  /** One certificate's DER. */
  derBytes: 8_192,
  rsaBits: { min: 2048, max: 4096 },
  rsaExponent: 65_537n,
  curves: ['prime256v1', 'secp384r1'],
} as const;

/** Why a certificate's key is refused, or undefined: RSA 2048-4096 bits with e = 65537, or EC P-256/P-384. */
export function keyRefusal(cert: X509Certificate): string | undefined {
  const key = cert.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') {
    const bits = details.modulusLength ?? 0;
    if (bits < BUNDLE_LIMITS.rsaBits.min || bits > BUNDLE_LIMITS.rsaBits.max)
      return `an RSA key of ${bits} bits (2048 to 4096 are accepted)`;
    if (details.publicExponent !== BUNDLE_LIMITS.rsaExponent) return 'an RSA key whose public exponent is not 65537';
    return undefined;
  }
  if (key.asymmetricKeyType === 'ec') {
    return (BUNDLE_LIMITS.curves as readonly string[]).includes(details.namedCurve ?? '')
      ? undefined
      : `an EC key on ${details.namedCurve ?? 'an unnamed curve'} (P-256 and P-384 are accepted)`;
  }
  return `a ${key.asymmetricKeyType ?? 'unknown'} key (RSA and EC P-256/P-384 are accepted)`;
}
