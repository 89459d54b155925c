import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ConnectionOptions, connect } from 'node:tls';
import test from 'ava';
import { ConfigError } from '../../src/keyserver/config-error.js';
import { parseDaemonArgs } from '../../src/keyserver/daemon/daemon-options.js';
import { type KeyServerDaemon, startKeyServerDaemon } from '../../src/keyserver/daemon/daemon-server.js';
import { certificateFingerprint } from '../../src/keyserver/identity/identity-certificate.js';
import { startGateway } from '../_support/gateway.js';
import { createTestClient, daemonFixtures } from '../_support/keyserver-daemon.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const SEED = { principals: [{ name: 'alice', kind: 'user' as const, password: 'alice-pw' }] };
const fixtures = await daemonFixtures(SEED);
const listed = await createTestClient();
const unlisted = await createTestClient();
const authority = await createTestClient();

async function daemonTrusting(clientTrust: { cas: string[]; fingerprints: string[] }): Promise<{ daemon: KeyServerDaemon; log: string[] }> {
  const log: string[] = [];
  const daemon = await startKeyServerDaemon(
    { host: '127.0.0.1', port: 0, dataPath: ':memory:', identity: fixtures, seed: SEED, clientTrust },
    (line) => log.push(line),
  );
  return { daemon, log };
}

const pinned = await daemonTrusting({ cas: [], fingerprints: [listed.fingerprint] });
const byCa = await daemonTrusting({ cas: [authority.certPem], fingerprints: [] });
test.after.always(() => Promise.all([pinned.daemon.close(), byCa.daemon.close()]));

const TRANSPORTS = ['http', 'framed'] as const;
type Transport = (typeof TRANSPORTS)[number];
/** How each transport's answer to the probe begins when it is served. */
const SERVED: Record<Transport, RegExp> = { http: /^HTTP\/1\.1 200 /, framed: /^\{"status":200,/ };

/**
 * Sends a login request (what a password-guessing peer sends) over a raw TLS connection, as HTTP/1.1
 * or on the framed transport, and answers every byte the daemon wrote back before the connection ended.
 */
function probe(url: string, options: Partial<ConnectionOptions>, transport: Transport = 'http'): Promise<string> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ user: 'alice', A: Buffer.alloc(256, 2).toString('base64') });
  return new Promise((resolve) => {
    const alpn = transport === 'framed' ? { ALPNProtocols: ['keygate/1'] } : {};
    const socket = connect({ host: hostname, port: Number(port), ca: fixtures.certPem, minVersion: 'TLSv1.3', ...alpn, ...options });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('secureConnect', () => {
      // A framed connection stays open after its answer: the probe ends it once the answer is in.
      if (transport === 'framed') socket.write(`${JSON.stringify({ method: 'POST', path: '/v1/login/begin', body: JSON.parse(body) })}\n`);
      else {
        socket.write(
          `POST /v1/login/begin HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      }
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (transport === 'framed' && chunk.includes(10)) socket.end();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

for (const transport of TRANSPORTS) {
  test(`${transport}: a peer without a client certificate is closed and gets nothing`, async (t) => {
    t.is(await probe(pinned.daemon.url, {}, transport), '');
    t.is(await probe(byCa.daemon.url, {}, transport), '');
  });

  test(`${transport}: a peer with a certificate that is not listed is closed and gets nothing`, async (t) => {
    t.is(await probe(pinned.daemon.url, { cert: unlisted.certPem, key: unlisted.keyPem }, transport), '');
    t.is(await probe(byCa.daemon.url, { cert: unlisted.certPem, key: unlisted.keyPem }, transport), '');
    t.true(pinned.log.some((line) => /refused a connection .*client certificate not trusted/.test(line)));
  });

  test(`${transport}: the listed gateway (pinned, or under the given CA) is served`, async (t) => {
    t.regex(await probe(pinned.daemon.url, { cert: listed.certPem, key: listed.keyPem }, transport), SERVED[transport]);
    t.regex(await probe(byCa.daemon.url, { cert: authority.certPem, key: authority.keyPem }, transport), SERVED[transport]);
  });
}

test('an unlisted peer resuming a session it was handed is closed too', async (t) => {
  const { hostname, port } = new URL(pinned.daemon.url);
  const session = await new Promise<Buffer | undefined>((resolve) => {
    const socket = connect({ host: hostname, port: Number(port), ca: fixtures.certPem, cert: unlisted.certPem, key: unlisted.keyPem });
    let ticket: Buffer | undefined;
    socket.on('session', (value: Buffer) => (ticket = value));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(ticket));
  });
  if (session === undefined) t.pass('no ticket was handed out');
  else for (const transport of TRANSPORTS) t.is(await probe(pinned.daemon.url, { session }, transport), '', transport);
});

test('without --client-ca or --client-fingerprint the daemon refuses to start, with one line', (t) => {
  const error = t.throws(() => parseDaemonArgs(['--data', ':memory:'], {}), { instanceOf: ConfigError });
  t.regex(error!.message, /^no gateway is trusted: give --client-ca FILE or --client-fingerprint SHA256/);
  t.false(error!.message.includes('\n'));
  t.throws(() => parseDaemonArgs(['--client-fingerprint', 'abc'], {}), { message: /^--client-fingerprint: expected 64 hex digits/ });
  const both = parseDaemonArgs(
    ['--client-fingerprint', listed.fingerprint, '--client-fingerprint', unlisted.fingerprint, '--client-ca', listed.certPath],
    {},
  );
  t.like(both, { clientTrust: { fingerprints: [listed.fingerprint, unlisted.fingerprint], cas: [listed.certPem] } });
});

test('a gateway generates its client certificate in its data directory, logs its fingerprint, and is served once the daemon lists it', async (t) => {
  const dataDir = scratchDir('keygate-gateway-client-');
  const keyServer = (url: string) => ({ kind: 'tls' as const, url, fingerprint: certificateFingerprint(fixtures.certPem), dataDir });
  const refused = await startGateway(t, { keyServer: keyServer(pinned.daemon.url) });
  const generated = readFileSync(join(dataDir, 'keyserver-client.crt'), 'utf8');
  t.is(statSync(join(dataDir, 'keyserver-client.key')).mode & 0o777, 0o600);
  const logged = refused.logger.lines.find((line) => line.message === 'key-server client certificate');
  t.is(logged?.fields?.fingerprint, certificateFingerprint(generated));
  const denied = await refused.call('POST', '/login', { body: { user: 'alice', password: 'alice-pw' } });
  // The seven operations answer a key server it cannot reach as 502 "login failed" (seed 000).
  t.is(denied.status, 502, denied.text);
  t.regex(denied.body.detail, /^key server unavailable: /, 'an unlisted gateway cannot reach the key server');
  await refused.close();

  const { daemon } = await daemonTrusting({ cas: [], fingerprints: [certificateFingerprint(generated)] });
  t.teardown(() => daemon.close());
  const served = await startGateway(t, { keyServer: keyServer(daemon.url) });
  const login = await served.call('POST', '/login', { body: { user: 'alice', password: 'alice-pw' } });
  t.is(login.status, 200, login.text);
  t.is(readFileSync(join(dataDir, 'keyserver-client.crt'), 'utf8'), generated, 'the same certificate after a restart');
});
