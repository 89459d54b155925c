import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { TlsKeyServer } from '../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { clientConfig, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { untilKillAll } from '../_support/child-processes.js';
import { CONTRACT_SEED, keyServerContract } from './key-server.contract.js';

/**
 * The KeyServer contract against the tls adapter and a real `keygate keyserver` process. Tokens live
 * TOKEN_TTL_SECONDS at the daemon; expiring them is waiting that long (a separate process cannot be
 * given a manual clock).
 */
const TOKEN_TTL_SECONDS = 10;
const random = new CryptoRandom();
const fixtures = await daemonFixtures(CONTRACT_SEED);
// One daemon per trust mode: the contract's tests change key-server state (policy, enrollments).
const startDaemon = () =>
  spawnDaemon(untilKillAll, [
    ...['--data', ':memory:', '--port', '0', '--token-ttl', String(TOKEN_TTL_SECONDS), '--seed', fixtures.seedPath],
    ...['--cert', fixtures.certPath, '--key', fixtures.keyPath],
  ]);
const [pinned, validated] = await Promise.all([startDaemon(), startDaemon()]);

test.after.always(killAllDaemons);

const trusts = [
  ['tls (pinned fingerprint, resumed sessions)', pinned, { fingerprint: pinned.fingerprint, resumeSessions: true }],
  ['tls (CA, full handshakes)', validated, { ca: fixtures.certPem, resumeSessions: false }],
] as const;

for (const [name, daemon, trust] of trusts) {
  keyServerContract(name, async () => {
    // A generous timeout: the suite runs other daemons beside these on two cores.
    const keyServer = await TlsKeyServer.start({ url: daemon.url, timeoutMs: 15_000, ...trust, ...(await clientConfig()) }, random);
    return {
      keyServer,
      expireTokens: () => sleep(TOKEN_TTL_SECONDS * 1000 + 200),
      close: () => keyServer.close(),
    };
  });
}
