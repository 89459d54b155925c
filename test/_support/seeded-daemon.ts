import type { ExecutionContext } from 'ava';
import { TlsKeyServer } from '../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { PASSWORDS, SEED } from './gateway.js';
import { clientConfig, daemonFixtures, spawnDaemon } from './keyserver-daemon.js';

/**
 * A real `keygate keyserver` daemon seeded with the test principals (in memory, its own certificate),
 * and the gateway's mutual-TLS client of it, both torn down with the test: what a gateway in front of a
 * daemon talks to (`startGateway(t, {}, { keyServer })`).
 */
export async function seededDaemonKeyServer(t: ExecutionContext): Promise<TlsKeyServer> {
  const fixtures = await daemonFixtures(SEED);
  const daemon = await spawnDaemon(t, [
    ...['--data', ':memory:', '--port', '0', '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin],
    ...['--cert', fixtures.certPath, '--key', fixtures.keyPath],
  ]);
  const keyServer = await TlsKeyServer.start(
    { url: daemon.url, timeoutMs: 10_000, fingerprint: daemon.fingerprint, resumeSessions: true, ...(await clientConfig()) },
    new CryptoRandom(),
  );
  t.teardown(() => keyServer.close());
  return keyServer;
}
