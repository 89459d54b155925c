import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';
import { createIdentityCertificate } from '../src/keyserver/identity/identity-certificate.js';

/**
 * The floor of the daemon hop: a bare Node TLS 1.3 server (the key server's kind of identity
 * certificate) that asks for a client certificate and admits only the pinned one (its fingerprint is
 * the first argument), as a daemon with `--client-fingerprint` does, then answers one small line per
 * connection and closes. Tells its parent where it listens.
 */
const pin = process.argv[2];
const identity = await createIdentityCertificate();
const server = createServer(
  { cert: identity.certPem, key: identity.keyPem, minVersion: 'TLSv1.3', requestCert: true, rejectUnauthorized: false },
  (socket: TLSSocket) => {
    const raw = socket.getPeerX509Certificate()?.raw;
    if (raw === undefined || createHash('sha256').update(raw).digest('hex') !== pin) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    socket.once('data', () => socket.end('{"ok":true}\n'));
    socket.on('error', () => socket.destroy());
  },
);
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port, ca: identity.certPem }));
process.on('SIGTERM', () => process.exit(0));
