import { type KeyObject, verify } from 'node:crypto';

/**
 * docs/spec.md §4.19 item 2: the certificate-login signature is over the 32 challenge bytes, RS256
 * (RSASSA-PKCS1-v1_5 with SHA-256) for an RSA key, ES256 (64-byte r||s) for a P-256 key. Anything
 * else, or a signature that does not verify, is false.
 */
export function verifyChallengeSignature(publicKey: KeyObject, challenge: Uint8Array, signature: Uint8Array): boolean {
  try {
    if (publicKey.asymmetricKeyType === 'rsa') return verify('sha256', challenge, publicKey, signature);
    if (publicKey.asymmetricKeyType === 'ec' && publicKey.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
      if (signature.length !== 64) return false;
      return verify('sha256', challenge, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
    }
    return false;
  } catch {
    return false;
  }
}
