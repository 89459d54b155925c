import { createHash } from 'node:crypto';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';
import { createIdentityCertificate } from '../src/keyserver/identity/identity-certificate.js';

/**
 * The floor of the daemon hop: a bare Node TLS 1.3 server (the key server's kind of identity
 * certificate) that asks for a client certificate and admits only the pinned one (its fingerprint is
 * the first argument), as a daemon with `--client-fingerprint` does. With `line` (the second argument)
 * it answers one small line per connection and closes; with `https` it is a bare `node:https` server
 * answering every request with an export's reply, as the daemon's HTTP/1.1 transport does, and nothing behind it.
 * Tells its parent where it listens.
 */
const [pin, round] = process.argv.slice(2);
const identity = await createIdentityCertificate();
const options = {
  cert: identity.certPem,
  key: identity.keyPem,
  minVersion: 'TLSv1.3',
  requestCert: true,
  rejectUnauthorized: false,
} as const;
const pinned = (socket: TLSSocket) => {
  const raw = socket.getPeerX509Certificate()?.raw;
  return raw !== undefined && createHash('sha256').update(raw).digest('hex') === pin;
};
const EXPORT_REPLY = JSON.stringify({ result: { nid: 'a'.repeat(16), key: Buffer.alloc(16, 7).toString('base64') } });
const server =
  round === 'https'
    ? createHttpsServer(options, (req, res) => {
        req.resume();
        req.once('end', () => {
          res.writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(EXPORT_REPLY),
            'cache-control': 'no-store',
          });
          res.end(EXPORT_REPLY);
        });
      }).prependListener('secureConnection', (socket: TLSSocket) => {
        if (!pinned(socket)) socket.destroy();
      })
    : createServer(options, (socket: TLSSocket) => {
        if (!pinned(socket)) {
          socket.destroy();
          return;
        }
        socket.setNoDelay(true);
        socket.once('data', () => socket.end('{"ok":true}\n'));
        socket.on('error', () => socket.destroy());
      });
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port, ca: identity.certPem }));
process.on('SIGTERM', () => process.exit(0));
// A parent that dies without killing it (a failed bench) leaves no floor server behind.
process.on('disconnect', () => process.exit(0));
