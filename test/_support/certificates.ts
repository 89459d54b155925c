import 'reflect-metadata';
import { generateKeyPairSync, KeyObject, type KeyObject as NodeKeyObject, sign, webcrypto } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { GeneralName, GeneralSubtree, GeneralSubtrees, id_ce_nameConstraints, Name, NameConstraints } from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A certificate the tests made, with its private key. */
export interface TestCertificate {
  readonly pem: string;
  readonly privateKey: NodeKeyObject;
  readonly cert: x509.X509Certificate;
  readonly keys: CryptoKeyPair;
}

const DAY = 86_400_000;
let serial = 1;

/** What any test certificate may add: a full subject instead of `CN=<name>`, and extensions of its own. */
export interface CertificateExtras {
  /** The subject in @peculiar/x509's string form, RDNs in order (`O=Partner Ltd, CN=carol`). */
  readonly subject?: string;
  readonly extensions?: readonly x509.Extension[];
}

/** One subtree of a name constraint: a directory name (string form), DNS name, mailbox/domain, or IP range. */
export interface Subtree {
  readonly dn?: string;
  readonly dns?: string;
  readonly email?: string;
  readonly ip?: string;
}

/** A nameConstraints extension (RFC 5280 §4.2.1.10), critical unless `critical: false`. */
export function nameConstraints(constraints: { permitted?: Subtree[]; excluded?: Subtree[]; critical?: boolean }): x509.Extension {
  const subtrees = (list: Subtree[] | undefined) =>
    list === undefined ? undefined : new GeneralSubtrees(list.map((item) => new GeneralSubtree({ base: generalName(item) })));
  const value = new NameConstraints({
    permittedSubtrees: subtrees(constraints.permitted),
    excludedSubtrees: subtrees(constraints.excluded),
  });
  return new x509.Extension(id_ce_nameConstraints, constraints.critical ?? true, AsnConvert.serialize(value));
}

function generalName(item: Subtree): GeneralName {
  if (item.dn !== undefined) return new GeneralName({ directoryName: AsnConvert.parse(new x509.Name(item.dn).toArrayBuffer(), Name) });
  if (item.dns !== undefined) return new GeneralName({ dNSName: item.dns });
  if (item.email !== undefined) return new GeneralName({ rfc822Name: item.email });
  return new GeneralName({ iPAddress: item.ip ?? '' });
}

/** An extension no path check knows (a private OID), critical unless `critical: false`. */
export function unknownExtension(critical = true): x509.Extension {
  return new x509.Extension('1.3.6.1.4.1.55555.1', critical, new Uint8Array([0x05, 0x00]));
}

/** An RSA key pair made by Node, for keys WebCrypto will not make (small moduli, unusual exponents). */
export function rsaKeyPair(modulusLength: number, publicExponent = 65_537): { publicKey: NodeKeyObject; privateKey: NodeKeyObject } {
  return generateKeyPairSync('rsa', { modulusLength, publicExponent });
}

/** A certificate authority (basicConstraints CA:TRUE, pathLenConstraint 1 unless `pathLength` says otherwise). */
export async function createAuthority(
  name: string,
  options: { notBefore?: Date; notAfter?: Date; pathLength?: number } & CertificateExtras = {},
): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: String(serial++).padStart(2, '0'),
    name: options.subject ?? `CN=${name}`,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * DAY),
    signingAlgorithm: EC,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, options.pathLength ?? 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
      ...(options.extensions ?? []),
    ],
  });
  return finish(cert, keys);
}

/**
 * An intermediate authority issued by `authority` (basicConstraints CA:TRUE unless `ca: false`; keyUsage
 * keyCertSign and digitalSignature unless `keyUsage` says otherwise).
 */
export async function createIntermediate(
  authority: TestCertificate,
  name: string,
  options: { notBefore?: Date; notAfter?: Date; ca?: boolean; keyUsage?: number; publicKey?: NodeKeyObject } & CertificateExtras = {},
): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: String(serial++).padStart(2, '0'),
    subject: options.subject ?? `CN=${name}`,
    issuer: authority.cert.subject,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 90 * DAY),
    signingAlgorithm: EC,
    publicKey: options.publicKey === undefined ? keys.publicKey : spki(options.publicKey),
    signingKey: authority.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(options.ca ?? true, undefined, true),
      new x509.KeyUsagesExtension(options.keyUsage ?? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
      ...(options.extensions ?? []),
    ],
  });
  return finish(cert, keys);
}

/** A leaf's usage extensions: keyUsage (default digitalSignature; null: none) and extendedKeyUsage OIDs. */
export interface LeafUsage {
  readonly keyUsage?: number | null;
  readonly extendedKeyUsage?: readonly string[];
}

/**
 * A leaf issued by `authority` (RSA by default, or P-256, or a Node key pair of any kind), for subject
 * `CN=<name>` unless `subject` says otherwise, with subject alternative names when `san` lists them.
 */
export async function createLeaf(
  authority: TestCertificate,
  name: string,
  options: {
    keyType?: 'RSA' | 'EC';
    keyPair?: { publicKey: NodeKeyObject; privateKey: NodeKeyObject };
    notBefore?: Date;
    notAfter?: Date;
    extraSubject?: string;
    san?: x509.JsonGeneralNames;
  } & LeafUsage &
    CertificateExtras = {},
): Promise<TestCertificate> {
  const algorithm = options.keyType === 'EC' ? EC : RSA;
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: String(serial++).padStart(2, '0'),
    subject: options.subject ?? `CN=${name}${options.extraSubject ?? ''}`,
    issuer: authority.cert.subject,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 30 * DAY),
    signingAlgorithm: EC,
    publicKey: options.keyPair === undefined ? keys.publicKey : spki(options.keyPair.publicKey),
    signingKey: authority.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      ...(options.keyUsage === null ? [] : [new x509.KeyUsagesExtension(options.keyUsage ?? x509.KeyUsageFlags.digitalSignature, true)]),
      ...(options.extendedKeyUsage === undefined ? [] : [new x509.ExtendedKeyUsageExtension([...options.extendedKeyUsage])]),
      ...(options.san === undefined ? [] : [new x509.SubjectAlternativeNameExtension(options.san)]),
      ...(options.extensions ?? []),
    ],
  });
  const made = await finish(cert, keys);
  return options.keyPair === undefined ? made : { ...made, privateKey: options.keyPair.privateKey };
}

/** A PEM bundle: the leaf first, then its intermediates (api-surface.md "Certificates"). */
export function bundle(...certificates: TestCertificate[]): string {
  return certificates.map((c) => c.pem.trim()).join('\n');
}

/** Signs a certificate-login challenge as the contract says: RS256 for RSA, ES256 (r||s) for P-256. */
export function signChallenge(certificate: TestCertificate, challenge: string): string {
  const data = Buffer.from(challenge, 'base64url');
  const key = certificate.privateKey;
  const signature = key.asymmetricKeyType === 'rsa' ? sign('sha256', data, key) : sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
  return signature.toString('base64url');
}

function spki(key: NodeKeyObject): ArrayBuffer {
  const der = key.export({ type: 'spki', format: 'der' });
  return der.buffer.slice(der.byteOffset, der.byteOffset + der.byteLength) as ArrayBuffer;
}

async function finish(cert: x509.X509Certificate, keys: CryptoKeyPair): Promise<TestCertificate> {
  return { pem: cert.toString('pem'), privateKey: KeyObject.from(keys.privateKey), cert, keys };
}
