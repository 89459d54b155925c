import type * as x509 from '@peculiar/x509';

/**
 * The extensions the path check processes; any other extension marked critical makes the path fail
 * (RFC 5280 §4.2: "A certificate-using system MUST reject the certificate if it encounters a critical
 * extension it does not recognize").
 */
export const PROCESSED_EXTENSIONS: Readonly<Record<string, string>> = {
  '2.5.29.19': 'basicConstraints (§4.2.1.9)',
  '2.5.29.15': 'keyUsage (§4.2.1.3)',
  '2.5.29.37': 'extendedKeyUsage (§4.2.1.12)',
  '2.5.29.30': 'nameConstraints (§4.2.1.10)',
  '2.5.29.17': 'subjectAltName (§4.2.1.6), checked against name constraints',
  '2.5.29.14': 'subjectKeyIdentifier (§4.2.1.2), used to build the path',
  '2.5.29.35': 'authorityKeyIdentifier (§4.2.1.1), used to build the path',
};

/** Why a certificate on the path is refused for a critical extension the path check does not process. */
export function criticalExtensionRefusal(path: readonly x509.X509Certificate[]): string | undefined {
  for (const [index, cert] of path.entries()) {
    const unknown = cert.extensions.find((extension) => extension.critical && PROCESSED_EXTENSIONS[extension.type] === undefined);
    if (unknown !== undefined) {
      const which = index === 0 ? 'the certificate' : 'an authority on the path';
      return `${which} carries a critical extension that is not processed (${unknown.type})`;
    }
  }
  return undefined;
}
