import { createServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { createIdentityCertificate } from '../src/keyserver/identity/identity-certificate.js';

/**
 * The floor of the daemon hop: a bare Node TLS 1.3 server (the key server's kind of identity
 * certificate) answering one small line per connection, then closing. Tells its parent where it listens.
 */
const identity = await createIdentityCertificate();
const server = createServer({ cert: identity.certPem, key: identity.keyPem, minVersion: 'TLSv1.3' }, (socket) => {
  socket.setNoDelay(true);
  socket.once('data', () => socket.end('{"ok":true}\n'));
  socket.on('error', () => socket.destroy());
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port, ca: identity.certPem }));
process.on('SIGTERM', () => process.exit(0));
