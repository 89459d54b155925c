import { calculateJwkThumbprint } from 'jose';
import type { ProofPublicJwk } from './proof-key.js';
import { ProofMalformedError } from './proof.errors.js';

/**
 * The RFC 7638 thumbprint (SHA-256, base64url) of a checked public key: the `jkt` a bound session
 * carries (RFC 9449 §6.1) and the name a key is cached under.
 */
export async function jwkThumbprint(jwk: ProofPublicJwk): Promise<string> {
  try {
    return await calculateJwkThumbprint(jwk, 'sha256');
  } catch (cause) {
    throw new ProofMalformedError('jwk has no thumbprint', cause);
  }
}
