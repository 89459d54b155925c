import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { TlsKeyServer } from '../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { untilKillAll } from '../_support/child-processes.js';
import { clientConfig, type DaemonProcess, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { CONTRACT_SEED } from './key-server.contract.js';
import type { KeyServerFactory } from './key-server-under-test.js';

/**
 * Two real `keygate keyserver` processes for a test file of the KeyServer contract, one per trust
 * mode, each with its own in-memory state (the contract's tests change key-server state: policy,
 * enrollments). Tokens live TOKEN_TTL_SECONDS at the daemon, long enough for a slow test on a loaded
 * machine to finish with its tokens. A test that lets its tokens expire (`expiring`) gets a daemon of
 * its own whose tokens live EXPIRING_TTL_SECONDS: expiring them is waiting that long (a separate
 * process cannot be given a manual clock), and the file's other tests need not wait for it. Registers
 * the daemons' teardown.
 */
const TOKEN_TTL_SECONDS = 30;
const EXPIRING_TTL_SECONDS = 6;

export async function tlsContractTargets(): Promise<readonly (readonly [string, KeyServerFactory])[]> {
  const random = new CryptoRandom();
  const fixtures = await daemonFixtures(CONTRACT_SEED);
  const startDaemon = (ttlSeconds: number) =>
    spawnDaemon(untilKillAll, [
      ...['--data', ':memory:', '--port', '0', '--token-ttl', String(ttlSeconds), '--seed', fixtures.seedPath],
      ...['--cert', fixtures.certPath, '--key', fixtures.keyPath],
    ]);
  const [pinned, validated] = await Promise.all([startDaemon(TOKEN_TTL_SECONDS), startDaemon(TOKEN_TTL_SECONDS)]);
  test.after.always(killAllDaemons);
  const trusts = [
    [
      'tls (pinned fingerprint, resumed sessions)',
      pinned,
      (daemon: DaemonProcess) => ({ fingerprint: daemon.fingerprint, resumeSessions: true }),
    ],
    ['tls (CA, full handshakes)', validated, () => ({ ca: fixtures.certPem, resumeSessions: false })],
  ] as const;
  return trusts.map(([name, shared, trust]) => [
    name,
    async ({ expiring = false } = {}) => {
      const daemon = expiring ? await startDaemon(EXPIRING_TTL_SECONDS) : shared;
      const ttlSeconds = expiring ? EXPIRING_TTL_SECONDS : TOKEN_TTL_SECONDS;
      // A generous timeout: the suite runs other daemons beside these on two cores.
      const keyServer = await TlsKeyServer.start(
        { url: daemon.url, timeoutMs: 15_000, ...trust(daemon), ...(await clientConfig()) },
        random,
      );
      const close = async () => {
        await keyServer.close();
        if (daemon !== shared) await daemon.stop();
      };
      return { keyServer, expireTokens: () => sleep(ttlSeconds * 1000 + 200), close };
    },
  ]);
}
