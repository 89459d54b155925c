import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { KeyObject, sign, webcrypto, type KeyObject as NodeKeyObject } from 'node:crypto';

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

/** A certificate authority (basicConstraints CA:TRUE, pathLenConstraint 1 unless `pathLength` says otherwise). */
export async function createAuthority(name: string, options: { notBefore?: Date; notAfter?: Date; pathLength?: number } = {}): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: String(serial++).padStart(2, '0'),
    name: `CN=${name}`,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * DAY),
    signingAlgorithm: EC,
    keys,
    extensions: [new x509.BasicConstraintsExtension(true, options.pathLength ?? 1, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
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
  options: { notBefore?: Date; notAfter?: Date; ca?: boolean; keyUsage?: number } = {},
): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: String(serial++).padStart(2, '0'),
    subject: `CN=${name}`,
    issuer: authority.cert.subject,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 90 * DAY),
    signingAlgorithm: EC,
    publicKey: keys.publicKey,
    signingKey: authority.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(options.ca ?? true, undefined, true),
      new x509.KeyUsagesExtension(options.keyUsage ?? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  return finish(cert, keys);
}

/** A leaf's usage extensions: keyUsage (default digitalSignature; null: none) and extendedKeyUsage OIDs. */
export interface LeafUsage {
  readonly keyUsage?: number | null;
  readonly extendedKeyUsage?: readonly string[];
}

/** A leaf issued by `authority` (RSA by default, or P-256), for subject `CN=<name>`. */
export async function createLeaf(
  authority: TestCertificate,
  name: string,
  options: { keyType?: 'RSA' | 'EC'; notBefore?: Date; notAfter?: Date; extraSubject?: string } & LeafUsage = {},
): Promise<TestCertificate> {
  const algorithm = options.keyType === 'EC' ? EC : RSA;
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: String(serial++).padStart(2, '0'),
    subject: `CN=${name}${options.extraSubject ?? ''}`,
    issuer: authority.cert.subject,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 30 * DAY),
    signingAlgorithm: EC,
    publicKey: keys.publicKey,
    signingKey: authority.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      ...(options.keyUsage === null ? [] : [new x509.KeyUsagesExtension(options.keyUsage ?? x509.KeyUsageFlags.digitalSignature, true)]),
      ...(options.extendedKeyUsage === undefined ? [] : [new x509.ExtendedKeyUsageExtension([...options.extendedKeyUsage])]),
    ],
  });
  return finish(cert, keys);
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

async function finish(cert: x509.X509Certificate, keys: CryptoKeyPair): Promise<TestCertificate> {
  return { pem: cert.toString('pem'), privateKey: KeyObject.from(keys.privateKey), cert, keys };
}
