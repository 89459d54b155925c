import 'reflect-metadata';
import { createHash, webcrypto, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { CertificateMalformedError } from '../model/key-server-errors.js';
import { criticalExtensionRefusal } from './certificate-extensions.js';
import { BUNDLE_LIMITS, keyRefusal } from './certificate-limits.js';
import { nameConstraintRefusal } from './name-constraints.js';

const PEM_BLOCKS = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const OID = { CN: '2.5.4.3', UID: '0.9.2342.19200300.100.1.1', emailAddress: '1.2.840.113549.1.9.1' } as const;
/** The library's signature checks run on Node's WebCrypto, named here rather than left to a global. */
const CRYPTO = webcrypto as unknown as Crypto;

/**
 * A submitted certificate: the leaf first, then its intermediates (docs/spec.md §4.19 item 4).
 * Anything that does not parse, or that exceeds BUNDLE_LIMITS (size, count, key type and size), is
 * CERTIFICATE_MALFORMED, decided before any path is built or any signature verified.
 */
export function parseBundle(pem: unknown, field = 'certificate'): { leaf: X509Certificate; intermediates: X509Certificate[] } {
  if (typeof pem === 'string' && pem.length > BUNDLE_LIMITS.pemChars) {
    throw new CertificateMalformedError(`${field}: a bundle is at most ${BUNDLE_LIMITS.pemChars} characters`);
  }
  const blocks = typeof pem === 'string' ? (pem.match(PEM_BLOCKS) ?? []) : [];
  if (blocks.length === 0) throw new CertificateMalformedError(`${field}: not a PEM certificate`);
  if (blocks.length > BUNDLE_LIMITS.certificates) {
    throw new CertificateMalformedError(
      `${field}: at most ${BUNDLE_LIMITS.certificates} certificates in a bundle (the leaf and ${BUNDLE_LIMITS.certificates - 1} intermediates)`,
    );
  }
  const certs = blocks.map((block, index) => {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(block);
    } catch (cause) {
      throw new CertificateMalformedError(`${field}: the certificate cannot be parsed`, cause);
    }
    const which = index === 0 ? 'the leaf' : `intermediate ${index}`;
    if (cert.raw.length > BUNDLE_LIMITS.derBytes)
      throw new CertificateMalformedError(`${field}: ${which} is larger than ${BUNDLE_LIMITS.derBytes} bytes`);
    const refusal = keyRefusal(cert);
    if (refusal !== undefined) throw new CertificateMalformedError(`${field}: ${which} has ${refusal}`);
    return cert;
  });
  return { leaf: certs[0]!, intermediates: certs.slice(1) };
}

export type PathResult =
  | {
      readonly trusted: true;
      readonly chain: readonly string[];
      readonly anchorId: string;
      /** The authority that issued the leaf: the first intermediate, or the anchor itself. */
      readonly issuer: X509Certificate;
    }
  | { readonly trusted: false; readonly reason: string };

const UNTRUSTED = 'the certificate does not chain to a trusted authority';

/**
 * Builds and validates a path from `leaf` through `intermediates` to one of the trusted `anchors` at
 * `now` (docs/spec.md §4.19 item 5). @peculiar/x509 builds the path (X509ChainBuilder: issuer name, key
 * identifiers, signature) and checks each signature with the validity at our clock
 * (X509Certificate.verify with `date`); what it leaves to us is checked over the chain it built: the
 * path ends at an anchor, every authority carries basicConstraints cA, keyUsage keyCertSign when it
 * lists key usages, and a pathLenConstraint no shorter than the intermediates below it (RFC 5280
 * §4.2.1.9); the leaf carries keyUsage digitalSignature and, when it lists extended key usages,
 * clientAuth (§4.2.1.3, §4.2.1.12); no certificate on the path, the anchor included, carries a critical
 * extension outside PROCESSED_EXTENSIONS (§4.2); every authority's name constraints hold below it,
 * the anchor's too (§4.2.1.10, §6.1; applying the anchor's as RFC 5937 allows).
 */
export async function buildPath(
  leaf: X509Certificate,
  intermediates: readonly X509Certificate[],
  anchors: readonly X509Certificate[],
  now: number,
): Promise<PathResult> {
  const target = toLibrary(leaf);
  const usage = leafUsageRefusal(target);
  if (usage !== undefined) return { trusted: false, reason: usage };
  const anchorIds = new Set(anchors.map((anchor) => certificateIdOf(toLibrary(anchor))));
  const built = await buildChain(target, [...anchors, ...intermediates].map(toLibrary));
  // The path ends at the first trusted authority; anything the bundle adds above it is not needed.
  const end = built.findIndex((cert, index) => index > 0 && anchorIds.has(certificateIdOf(cert)));
  if (end < 0) return { trusted: false, reason: UNTRUSTED };
  const path = built.slice(0, end + 1);
  const refusal =
    authorityRefusal(path) ?? criticalExtensionRefusal(path) ?? nameConstraintRefusal(path) ?? (await validityRefusal(path, new Date(now)));
  if (refusal !== undefined) return { trusted: false, reason: refusal };
  const chain = path.map(certificateIdOf);
  return { trusted: true, chain, anchorId: chain[chain.length - 1]!, issuer: new X509Certificate(Buffer.from(path[1]!.rawData)) };
}

/** The library's chain, leaf first; a chain it cannot build (a loop) is the leaf alone. */
async function buildChain(target: x509.X509Certificate, pool: x509.X509Certificate[]): Promise<x509.X509Certificate[]> {
  try {
    return [...(await new x509.X509ChainBuilder({ certificates: pool }).build(target, CRYPTO))];
  } catch {
    return [target];
  }
}

/** Every authority on the path: cA, keyCertSign when keyUsage is present, pathLenConstraint respected. */
function authorityRefusal(path: readonly x509.X509Certificate[]): string | undefined {
  for (let index = 1; index < path.length; index += 1) {
    const authority = path[index]!;
    const constraints = authority.getExtension(x509.BasicConstraintsExtension);
    if (constraints?.ca !== true) return 'an issuer on the path is not a certificate authority (basicConstraints cA)';
    const keyUsage = authority.getExtension(x509.KeyUsagesExtension);
    if (keyUsage !== null && (keyUsage.usages & x509.KeyUsageFlags.keyCertSign) === 0) {
      return 'an authority on the path may not sign certificates (keyUsage keyCertSign)';
    }
    // The intermediates between this authority and the leaf (RFC 5280 §4.2.1.9).
    if (constraints.pathLength !== undefined && index - 1 > constraints.pathLength) {
      return 'the path is longer than an authority allows (basicConstraints pathLenConstraint)';
    }
  }
  return undefined;
}

/**
 * Each certificate verifies under its issuer's key within its validity period at `date`; the anchor
 * is trusted as registered, so only its validity period is compared.
 */
async function validityRefusal(path: readonly x509.X509Certificate[], date: Date): Promise<string | undefined> {
  for (let index = 0; index + 1 < path.length; index += 1) {
    const verified = await path[index]!.verify({ date, publicKey: path[index + 1]!.publicKey }, CRYPTO);
    if (!verified)
      return index === 0 ? 'the certificate is outside its validity period' : 'an authority on the path is outside its validity period';
  }
  const anchor = path[path.length - 1]!;
  if (anchor.notBefore > date || date > anchor.notAfter) return 'the trusted authority is outside its validity period';
  return undefined;
}

function toLibrary(cert: X509Certificate): x509.X509Certificate {
  return new x509.X509Certificate(cert.raw);
}

/** Certificate id: lower-case hex SHA-256 of the DER (certificates.ts, for the library's certificates). */
function certificateIdOf(cert: x509.X509Certificate): string {
  return createHash('sha256').update(Buffer.from(cert.rawData)).digest('hex');
}

/**
 * Why a certificate cannot be registered as a trusted authority, beyond cA: a key outside the bundle
 * limits, or a critical extension the path check does not process (every path through it would fail).
 */
export function anchorRefusal(cert: X509Certificate): string | undefined {
  const key = keyRefusal(cert);
  return key === undefined ? criticalExtensionRefusal([toLibrary(cert)]) : `the authority has ${key}`;
}

/** basicConstraints cA, read from the extension itself. */
export function isAuthority(cert: X509Certificate): boolean {
  return toLibrary(cert).getExtension(x509.BasicConstraintsExtension)?.ca === true;
}

function leafUsageRefusal(leaf: x509.X509Certificate): string | undefined {
  const keyUsage = leaf.getExtension(x509.KeyUsagesExtension);
  if (keyUsage === null || (keyUsage.usages & x509.KeyUsageFlags.digitalSignature) === 0) {
    return 'the certificate is not for digital signatures (keyUsage digitalSignature)';
  }
  const extended = leaf.getExtension(x509.ExtendedKeyUsageExtension);
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
  const values = toLibrary(cert).subjectName.getField(OID[attribute]);
  return values.length === 1 ? values[0] : undefined;
}
