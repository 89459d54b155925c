import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { TlsKeyServer } from '../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { untilKillAll } from '../_support/child-processes.js';
import { clientConfig, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { CONTRACT_SEED } from './key-server.contract.js';
import type { KeyServerFactory } from './key-server-under-test.js';

/**
 * Two real `keygate keyserver` processes for a test file of the KeyServer contract, one per trust
 * mode, each with its own in-memory state (the contract's tests change key-server state: policy,
 * enrollments). Tokens live TOKEN_TTL_SECONDS at the daemon, long enough for a slow test on a loaded
 * machine to finish with its tokens; expiring them is waiting that long (a
 * separate process cannot be given a manual clock). Registers the daemons' teardown.
 */
const TOKEN_TTL_SECONDS = 30;

export async function tlsContractTargets(): Promise<readonly (readonly [string, KeyServerFactory])[]> {
  const random = new CryptoRandom();
  const fixtures = await daemonFixtures(CONTRACT_SEED);
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
  return trusts.map(([name, daemon, trust]) => [
    name,
    async () => {
      // A generous timeout: the suite runs other daemons beside these on two cores.
      const keyServer = await TlsKeyServer.start({ url: daemon.url, timeoutMs: 15_000, ...trust, ...(await clientConfig()) }, random);
      return { keyServer, expireTokens: () => sleep(TOKEN_TTL_SECONDS * 1000 + 200), close: () => keyServer.close() };
    },
  ]);
}
