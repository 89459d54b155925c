import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { X509Certificate } from 'node:crypto';
import { CertificateMalformedError } from '../model/key-server-errors.js';
import { certificateId, isValidAt } from './certificates.js';

const PEM_BLOCKS = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
/** A leaf and its intermediates; a longer bundle is refused rather than searched. */
const MAX_BUNDLE = 8;
const OID = { CN: '2.5.4.3', UID: '0.9.2342.19200300.100.1.1', emailAddress: '1.2.840.113549.1.9.1' } as const;

/**
 * A submitted certificate: the leaf first, then its intermediates (api-surface.md "Certificates").
 * Anything that does not parse is CERTIFICATE_MALFORMED.
 */
export function parseBundle(pem: unknown, field = 'certificate'): { leaf: X509Certificate; intermediates: X509Certificate[] } {
  const blocks = typeof pem === 'string' ? (pem.match(PEM_BLOCKS) ?? []) : [];
  if (blocks.length === 0) throw new CertificateMalformedError(`${field}: not a PEM certificate`);
  if (blocks.length > MAX_BUNDLE) throw new CertificateMalformedError(`${field}: at most ${MAX_BUNDLE} certificates in a bundle`);
  const certs = blocks.map((block) => {
    try {
      return new X509Certificate(block);
    } catch (cause) {
      throw new CertificateMalformedError(`${field}: the certificate cannot be parsed`, cause);
    }
  });
  return { leaf: certs[0]!, intermediates: certs.slice(1) };
}

export type PathResult =
  | { readonly trusted: true; readonly chain: readonly string[]; readonly anchorId: string }
  | { readonly trusted: false; readonly reason: string };

/**
 * Builds and validates a path from `leaf` through `intermediates` to one of the trusted `anchors` at
 * `now` (issue 12 §3): each issuer names the subject's issuer, verifies its signature, is inside its
 * validity period and carries basicConstraints cA; the leaf carries keyUsage digitalSignature and,
 * when it lists extended key usages, clientAuth. Only an anchor ends a path.
 */
export function buildPath(leaf: X509Certificate, intermediates: readonly X509Certificate[], anchors: readonly X509Certificate[], now: number): PathResult {
  if (!isValidAt(leaf, now)) return { trusted: false, reason: 'the certificate is outside its validity period' };
  const usage = leafUsageRefusal(leaf);
  if (usage !== undefined) return { trusted: false, reason: usage };
  const anchorIds = new Set(anchors.map(certificateId));
  const search = (subject: X509Certificate, path: string[]): string[] | undefined => {
    for (const issuer of [...anchors, ...intermediates]) {
      const id = certificateId(issuer);
      if (path.includes(id) || !issuedBy(subject, issuer, now)) continue;
      if (anchorIds.has(id)) return [...path, id];
      if (path.length < MAX_BUNDLE) {
        const found = search(issuer, [...path, id]);
        if (found) return found;
      }
    }
    return undefined;
  };
  const chain = search(leaf, [certificateId(leaf)]);
  if (!chain) return { trusted: false, reason: 'the certificate does not chain to a trusted authority' };
  return { trusted: true, chain, anchorId: chain[chain.length - 1]! };
}

function issuedBy(subject: X509Certificate, issuer: X509Certificate, now: number): boolean {
  if (!isAuthority(issuer) || !isValidAt(issuer, now) || !subject.checkIssued(issuer)) return false;
  try {
    return subject.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/** basicConstraints cA, read from the extension itself. */
export function isAuthority(cert: X509Certificate): boolean {
  return new x509.X509Certificate(cert.raw).getExtension(x509.BasicConstraintsExtension)?.ca === true;
}

function leafUsageRefusal(leaf: X509Certificate): string | undefined {
  const parsed = new x509.X509Certificate(leaf.raw);
  const keyUsage = parsed.getExtension(x509.KeyUsagesExtension);
  if (keyUsage === null || (keyUsage.usages & x509.KeyUsageFlags.digitalSignature) === 0) {
    return 'the certificate is not for digital signatures (keyUsage digitalSignature)';
  }
  const extended = parsed.getExtension(x509.ExtendedKeyUsageExtension);
  if (extended !== null && !extended.usages.includes(x509.ExtendedKeyUsage.clientAuth)) {
    return 'the certificate is not for client authentication (extendedKeyUsage clientAuth)';
  }
  return undefined;
}

/**
 * One subject attribute (CN, UID, emailAddress), read from the parsed name: `CN=Smith\, John` gives
 * `Smith, John`. Absent or present more than once: undefined (an ambiguous name names no one).
 */
export function subjectField(cert: X509Certificate, attribute: keyof typeof OID): string | undefined {
  const values = new x509.X509Certificate(cert.raw).subjectName.getField(OID[attribute]);
  return values.length === 1 ? values[0] : undefined;
}
