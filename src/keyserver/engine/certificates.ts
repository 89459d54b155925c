import { createHash, X509Certificate } from 'node:crypto';
import { CertificateMalformedError } from '../../domain/certificate/certificate.errors.js';
import type { CertificateInfo } from '../../domain/certificate/certificate.js';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** Reads one PEM certificate; anything else is CERTIFICATE_MALFORMED. */
export function parseCertificate(pem: unknown, field = 'certificate'): X509Certificate {
  if (typeof pem !== 'string' || !PEM_BLOCK.test(pem)) throw new CertificateMalformedError(`${field}: not a PEM certificate`);
  try {
    return new X509Certificate(PEM_BLOCK.exec(pem)![0]);
  } catch (cause) {
    throw new CertificateMalformedError(`${field}: the certificate cannot be parsed`, cause);
  }
}

/** Certificate id: lower-case hex SHA-256 of the DER, no separators (api-surface.md "Decisions"). */
export function certificateId(cert: X509Certificate): string {
  return createHash('sha256').update(cert.raw).digest('hex');
}

export function isValidAt(cert: X509Certificate, now: number): boolean {
  return Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
}

export type ChainResult = { readonly trusted: true; readonly chain: readonly string[] } | { readonly trusted: false; readonly reason: string };

/**
 * Does `leaf` chain to one of the trusted authorities at `now`? The issuer must be a CA certificate
 * that names the leaf's issuer and whose key verifies the leaf's signature; both must be in their
 * validity period.
 */
export function chainToAuthority(leaf: X509Certificate, authorities: readonly X509Certificate[], now: number): ChainResult {
  if (!isValidAt(leaf, now)) return { trusted: false, reason: 'the certificate is outside its validity period' };
  for (const authority of authorities) {
    if (!authority.ca || !leaf.checkIssued(authority)) continue;
    if (!leaf.verify(authority.publicKey)) continue;
    if (!isValidAt(authority, now)) return { trusted: false, reason: 'the issuing authority is outside its validity period' };
    return { trusted: true, chain: [certificateId(leaf), certificateId(authority)] };
  }
  return { trusted: false, reason: 'the certificate does not chain to a trusted authority' };
}

/** The value of one attribute of the subject (CN, UID, emailAddress), or undefined. */
export function subjectAttribute(cert: X509Certificate, attribute: string): string | undefined {
  for (const line of cert.subject.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0 && line.slice(0, at) === attribute) return line.slice(at + 1);
  }
  return undefined;
}

export type CertificateView = CertificateInfo;

export function certificateView(cert: X509Certificate, principal?: string): CertificateView {
  const key = cert.publicKey;
  const keyAlg =
    key.asymmetricKeyType === 'rsa'
      ? `RSA-${key.asymmetricKeyDetails?.modulusLength ?? 0}`
      : `${(key.asymmetricKeyType ?? 'unknown').toUpperCase()}-${key.asymmetricKeyDetails?.namedCurve ?? ''}`;
  return {
    id: certificateId(cert),
    subject: cert.subject.replace(/\n/g, ', '),
    issuer: cert.issuer.replace(/\n/g, ', '),
    serial: cert.serialNumber.toLowerCase(),
    notBefore: new Date(cert.validFrom).toISOString(),
    notAfter: new Date(cert.validTo).toISOString(),
    keyAlg,
    ...(principal === undefined ? {} : { principal }),
    pem: cert.toString(),
  };
}
