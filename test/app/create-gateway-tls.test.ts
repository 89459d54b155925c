import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import test from 'ava';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { createGateway } from '../../src/app/create-gateway.js';
import { createIdentityCertificate } from '../../src/keyserver/identity/identity-certificate.js';

const ca = (await createIdentityCertificate()).certPem;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  await new Promise((closed) => server.close(closed));
  return port;
}

test('a tls key server configuration needs exactly one of ca and fingerprint', async (t) => {
  const url = 'https://127.0.0.1:8443';
  await t.throwsAsync(createGateway({ keyServer: { kind: 'tls', url } }), { message: /keyServer.*exactly one of ca or fingerprint/ });
  await t.throwsAsync(createGateway({ keyServer: { kind: 'tls', url, ca, fingerprint: 'ab'.repeat(32) } }), { message: /exactly one/ });
  await t.throwsAsync(createGateway({ keyServer: { kind: 'tls', url, fingerprint: 'xyz' } }), { message: /keyServer\.fingerprint/ });
  await t.throwsAsync(createGateway({ keyServer: { kind: 'tls', url: 'http://127.0.0.1:8443', ca } }), { message: /keyServer\.url/ });
});

test('under CA trust the gateway learns the fingerprint at start, so an unreachable daemon stops the start', async (t) => {
  const url = `https://127.0.0.1:${await closedPort()}`;
  const error = await t.throwsAsync(createGateway({ keyServer: { kind: 'tls', url, ca } }, { logger: new MemoryLogger() }));
  t.is((error as { code?: string }).code, 'KEY_SERVER_UNAVAILABLE');
});

test('under a pin the gateway starts without reaching the daemon, and reports the pin', async (t) => {
  const url = `https://127.0.0.1:${await closedPort()}`;
  const gateway = await createGateway(
    { keyServer: { kind: 'tls', url, fingerprint: `${'AB:'.repeat(31)}AB` } },
    { logger: new MemoryLogger() },
  );
  t.is(gateway.ksFingerprint, 'ab'.repeat(32));
  await gateway.close();
});
