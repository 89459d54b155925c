import 'reflect-metadata';
import { createHash, webcrypto, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** A key server's TLS identity: certificate and private key, PEM. */
export interface IdentityCertificate {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface IdentityOptions {
  readonly commonName?: string;
  /** DNS names and IP addresses the certificate is valid for. */
  readonly hosts?: readonly string[];
  readonly days?: number;
  readonly now?: Date;
  /** `server` (default): a key server's TLS identity; `client`: a gateway's certificate for mutual TLS. */
  readonly usage?: 'server' | 'client';
}

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]+:[0-9a-f:]*)$/i;

/**
 * Generates a self-signed P-256 identity certificate for a key server (first start of the embedded
 * engine or of the daemon). It names `localhost` and the loopback addresses unless told otherwise.
 */
export async function createIdentityCertificate(options: IdentityOptions = {}): Promise<IdentityCertificate> {
  const now = options.now ?? new Date();
  const keys = (await webcrypto.subtle.generateKey(ECDSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const hosts = options.hosts ?? ['localhost', '127.0.0.1', '::1'];
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: `CN=${options.commonName ?? 'keygate key server'}`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + (options.days ?? 825) * 86_400_000),
    signingAlgorithm: ECDSA,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
      new x509.ExtendedKeyUsageExtension([
        options.usage === 'client' ? x509.ExtendedKeyUsage.clientAuth : x509.ExtendedKeyUsage.serverAuth,
      ]),
      new x509.SubjectAlternativeNameExtension(
        hosts.map((host) => ({ type: IP_ADDRESS.test(host) ? ('ip' as const) : ('dns' as const), value: host })),
      ),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certPem: cert.toString('pem'), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/** Lower-case hex SHA-256 of the certificate's DER, no separators. */
export function certificateFingerprint(certPem: string): string {
  return createHash('sha256').update(new X509Certificate(certPem).raw).digest('hex');
}
