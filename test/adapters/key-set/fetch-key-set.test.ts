import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { type FetchLimits, fetchKeySet, type Resolve } from '../../../src/adapters/key-set/fetch-key-set.js';
import { createIdentityCertificate } from '../../../src/keyserver/identity/identity-certificate.js';

const KEYS = { keys: [{ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA', kid: 'k1' }] };

/** An HTTPS key set server on 127.0.0.1 whose certificate names `issuer.test` only. */
async function httpsIssuer(t: ExecutionContext) {
  const identity = await createIdentityCertificate({ hosts: ['issuer.test'], commonName: 'issuer.test' });
  const server = createServer({ cert: identity.certPem, key: identity.keyPem }, (_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(KEYS)),
  );
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { port: (server.address() as AddressInfo).port, ca: identity.certPem };
}

const limits = (ca: string, plainHttpHosts: readonly string[] = []): FetchLimits => ({
  plainHttpHosts: new Set(plainHttpHosts),
  timeoutMs: 2000,
  maxBytes: 4096,
  maxKeys: 10,
  ca,
});

/** A resolver that answers `address` for every name, and counts how often it is asked. */
function resolveTo(address: string): Resolve & { asked: () => number } {
  let asked = 0;
  const resolve = async () => {
    asked += 1;
    return [{ address, family: 4 }];
  };
  return Object.assign(resolve, { asked: () => asked });
}

test('an https key set is fetched from the address the name resolved to once, with its certificate checked against the name', async (t) => {
  const { port, ca } = await httpsIssuer(t);
  const resolve = resolveTo('127.0.0.1');
  // Listed: the loopback test server would be refused otherwise.
  t.deepEqual(await fetchKeySet(`https://issuer.test:${port}/jwks`, limits(ca, ['issuer.test']), resolve), KEYS);
  t.is(resolve.asked(), 1);
});

test('a certificate that does not name the host, or no trusted CA, refuses the fetch', async (t) => {
  const { port, ca } = await httpsIssuer(t);
  await t.throwsAsync(fetchKeySet(`https://other.test:${port}/jwks`, limits(ca, ['other.test']), resolveTo('127.0.0.1')), {
    message: /^jwks: the key set could not be fetched/,
  });
  const untrusted = await createIdentityCertificate({ hosts: ['issuer.test'] });
  await t.throwsAsync(fetchKeySet(`https://issuer.test:${port}/jwks`, limits(untrusted.certPem, ['issuer.test']), resolveTo('127.0.0.1')), {
    message: /^jwks: the key set could not be fetched/,
  });
});

test('a name that resolves to a metadata, link-local or loopback address is refused before any connection', async (t) => {
  for (const address of ['169.254.169.254', '127.0.0.1', '::ffff:169.254.169.254', 'fd00:ec2::254', '100.100.100.200']) {
    await t.throwsAsync(
      fetchKeySet('https://issuer.test/jwks', limits(''), async () => [{ address, family: address.includes(':') ? 6 : 4 }]),
      {
        message: 'jwks: issuer.test resolves to a refused address',
      },
    );
  }
  // One refused address among good ones is enough to refuse.
  await t.throwsAsync(
    fetchKeySet('https://issuer.test/jwks', limits(''), async () => [
      { address: '203.0.113.7', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ]),
    { message: 'jwks: issuer.test resolves to a refused address' },
  );
});
