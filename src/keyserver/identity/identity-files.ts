import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createIdentityCertificate, type IdentityCertificate, type IdentityOptions } from './identity-certificate.js';

export interface IdentityPaths {
  readonly certPath: string;
  readonly keyPath: string;
}

/** Reads a key server's certificate and private key (PEM) and checks that they belong together. */
export function readIdentity(paths: IdentityPaths): IdentityCertificate {
  const identity = { certPem: readFileSync(paths.certPath, 'utf8'), keyPem: readFileSync(paths.keyPath, 'utf8') };
  if (!new X509Certificate(identity.certPem).checkPrivateKey(createPrivateKey(identity.keyPem))) {
    throw new Error(`the private key in ${paths.keyPath} does not belong to the certificate in ${paths.certPath}`);
  }
  return identity;
}

/**
 * The identity kept at `paths`, or, on first start, a new self-signed one written there (the key
 * readable by its owner only), so the fingerprint a gateway pins stays the same across restarts.
 */
export async function loadOrCreateIdentity(paths: IdentityPaths, options: IdentityOptions = {}): Promise<IdentityCertificate> {
  if (existsSync(paths.certPath) && existsSync(paths.keyPath)) return readIdentity(paths);
  const identity = await createIdentityCertificate(options);
  mkdirSync(dirname(paths.keyPath), { recursive: true, mode: 0o700 });
  writeFileSync(paths.keyPath, identity.keyPem, { mode: 0o600 });
  writeFileSync(paths.certPath, identity.certPem, { mode: 0o644 });
  return identity;
}
