import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { TlsKeyServer } from '../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { keyServerContract } from './key-server.contract.js';

/**
 * The KeyServer contract against the tls adapter and a real `keygate keyserver` process. Tokens live
 * TOKEN_TTL_SECONDS at the daemon; expiring them is waiting that long (a separate process cannot be
 * given a manual clock).
 */
const TOKEN_TTL_SECONDS = 5;
const random = new CryptoRandom();
const seed = { principals: ['alice', 'bob', 'carol'].map((name) => ({ name, kind: 'user', password: `${name}-pw` })) };
const fixtures = await daemonFixtures(seed);
const daemon = await spawnDaemon([
  ...['--data', ':memory:', '--port', '0', '--token-ttl', String(TOKEN_TTL_SECONDS), '--seed', fixtures.seedPath],
  ...['--cert', fixtures.certPath, '--key', fixtures.keyPath],
]);

test.after.always(killAllDaemons);

const trusts = [
  ['tls (pinned fingerprint, resumed sessions)', { fingerprint: daemon.fingerprint, resumeSessions: true }],
  ['tls (CA, full handshakes)', { ca: fixtures.certPem, resumeSessions: false }],
] as const;

for (const [name, trust] of trusts) {
  keyServerContract(name, async () => {
    const keyServer = await TlsKeyServer.start({ url: daemon.url, timeoutMs: 5_000, ...trust }, random);
    return {
      keyServer,
      expireTokens: () => sleep(TOKEN_TTL_SECONDS * 1000 + 200),
      close: () => keyServer.close(),
    };
  });
}
