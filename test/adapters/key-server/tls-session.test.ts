import { X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import test from 'ava';
import { TlsDialer, type TlsTrust } from '../../../src/adapters/key-server/tls-dialer.js';
import { withoutPeerCertificate } from '../../../src/adapters/key-server/tls-session.js';
import { certificateFingerprint, createIdentityCertificate } from '../../../src/keyserver/identity/identity-certificate.js';

const identity = await createIdentityCertificate();
const certificateDer = new X509Certificate(identity.certPem).raw;
const servers: Server[] = [];
test.after.always(() => {
  for (const server of servers) server.close();
});

/** An HTTPS server with the key server's identity: what the dialer connects to. */
async function daemonLike(): Promise<{ url: URL; port: number; reused: boolean[] }> {
  const server = createServer({ cert: identity.certPem, key: identity.keyPem, minVersion: 'TLSv1.3' }, (_req, res) => res.end('{}'));
  servers.push(server);
  const reused: boolean[] = [];
  server.on('secureConnection', (socket: TLSSocket) => reused.push(socket.isSessionReused()));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`https://127.0.0.1:${port}`), port, reused };
}

/**
 * One connection: whether it resumed, and whether the session it runs on holds the server's
 * certificate (a client is shown the certificate chain of a full handshake only, so the session's
 * DER is where the kept certificate shows).
 */
async function dial(dialer: TlsDialer): Promise<{ resumed: boolean; certificate: boolean }> {
  const socket = await dialer.open();
  const seen = { resumed: socket.isSessionReused(), certificate: socket.getSession()?.includes(certificateDer) === true };
  // The tickets come after the handshake and are read with the answer: the dialer keeps one by the close.
  socket.end('GET / HTTP/1.1\r\nhost: k\r\nconnection: close\r\n\r\n');
  socket.resume();
  await new Promise((closed) => socket.once('close', closed));
  return seen;
}

/** A real session ticket of a validated connection, as Node hands it out. */
async function realSession(port: number): Promise<Buffer> {
  const socket = connect({ host: '127.0.0.1', port, ca: identity.certPem, servername: 'localhost', minVersion: 'TLSv1.3' });
  const session = await new Promise<Buffer>((got, fail) => {
    socket.once('session', got);
    socket.once('error', fail);
  });
  socket.end();
  return session;
}

const trusts: [string, TlsTrust][] = [
  ['a pinned fingerprint', { fingerprint: certificateFingerprint(identity.certPem) }],
  ['a CA', { ca: identity.certPem }],
];
for (const [name, trust] of trusts) {
  test(`under ${name}, connections resume from a kept session that holds no certificate`, async (t) => {
    const { url, reused } = await daemonLike();
    const dialer = new TlsDialer({ url, trust, timeoutMs: 2_000, resumeSessions: true });
    const seen = [await dial(dialer), await dial(dialer), await dial(dialer)];
    t.deepEqual(seen, [
      { resumed: false, certificate: true },
      { resumed: true, certificate: false },
      { resumed: true, certificate: false },
    ]);
    t.deepEqual(reused, [false, true, true]);
    t.is(dialer.fingerprint, certificateFingerprint(identity.certPem));
  });
}

test('drops exactly the certificate from a real session and keeps every other member', async (t) => {
  const { port } = await daemonLike();
  const session = await realSession(port);
  t.true(session.includes(certificateDer), 'the session as Node gives it carries the certificate');
  const stripped = withoutPeerCertificate(session);
  t.false(stripped.includes(certificateDer));
  // The certificate went with its [3] wrapper (a tag and a length of 2 or 3 octets), and the outer
  // length shrank with it; nothing else changed.
  const removed = session.length - stripped.length;
  t.true(removed >= certificateDer.length + 4 && removed <= certificateDer.length + 10, `${removed} bytes removed`);
  t.is(withoutPeerCertificate(stripped), stripped, 'a session without one is returned as it is');
});

test('a session it cannot walk comes back unchanged', (t) => {
  const shapes = [
    Buffer.alloc(0),
    Buffer.from([0x30]),
    Buffer.from([0x04, 0x00]),
    Buffer.from([0x30, 0x05, 0xa3, 0x03, 0x01, 0x01, 0x00, 0xff]),
    Buffer.from([0x30, 0x04, 0xa3, 0x09, 0x01, 0x01]),
    Buffer.from([0x30, 0x84, 0x00, 0x00, 0x00, 0x02, 0xa3, 0x00]),
    Buffer.from([0x30, 0x03, 0x02, 0x81]),
  ];
  for (const shape of shapes) t.is(withoutPeerCertificate(shape), shape, shape.toString('hex'));
});

test('a kept session OpenSSL cannot read makes a full, validated handshake, not a failure', async (t) => {
  const { port } = await daemonLike();
  const unreadable = withoutPeerCertificate(await realSession(port)).subarray(0, 40);
  const socket = connect({
    host: '127.0.0.1',
    port,
    ca: identity.certPem,
    servername: 'localhost',
    minVersion: 'TLSv1.3',
    session: unreadable,
  });
  await new Promise((ready, fail) => socket.once('secureConnect', ready).once('error', fail));
  t.false(socket.isSessionReused());
  t.true(socket.authorized);
  t.truthy(socket.getPeerX509Certificate());
  socket.end();
});
