import { join } from 'node:path';
import { createIdentityCertificate, type IdentityCertificate } from '../keyserver/identity/identity-certificate.js';
import { loadOrCreateIdentity } from '../keyserver/identity/identity-files.js';
import type { TlsKeyServerConfig } from './config/config.js';

const CLIENT = { commonName: 'keygate gateway', usage: 'client' } as const;

/**
 * The certificate the gateway presents to a key-server daemon (mutual TLS): the one configured, or
 * the one kept in the data directory (generated on first start, the key readable by its owner only),
 * or, with neither, one for this process only.
 */
export async function gatewayClientIdentity(config: TlsKeyServerConfig): Promise<IdentityCertificate> {
  if (config.clientCert !== undefined && config.clientKey !== undefined) return { certPem: config.clientCert, keyPem: config.clientKey };
  if (config.dataDir === undefined) return createIdentityCertificate(CLIENT);
  return loadOrCreateIdentity(
    { certPath: join(config.dataDir, 'keyserver-client.crt'), keyPath: join(config.dataDir, 'keyserver-client.key') },
    CLIENT,
  );
}
