import { createHash, X509Certificate } from 'node:crypto';
import type { CertificateInfo } from '../../wire/certificate.js';
import { CertificateMalformedError } from '../model/key-server-errors.js';

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

/** Certificate id: lower-case hex SHA-256 of the DER, no separators (docs/spec.md §4.11). */
export function certificateId(cert: X509Certificate): string {
  return createHash('sha256').update(cert.raw).digest('hex');
}

export function isValidAt(cert: X509Certificate, now: number): boolean {
  return Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
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
