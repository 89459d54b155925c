import { join } from 'node:path';
import test from 'ava';
import { ManualClock } from '../../../src/adapters/clock/manual-clock.js';
import { TlsKeyServer } from '../../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../../src/adapters/random/crypto-random.js';
import { Secret } from '../../../src/domain/secret/secret.js';
import { PASSWORDS, SEED } from '../../_support/gateway.js';
import { clientConfig, daemonFixtures, killAllDaemons, spawnDaemon } from '../../_support/keyserver-daemon.js';

/** The TLS adapter on two real daemons (each on a store of its own, seeded alike). */
const fixtures = await daemonFixtures(SEED);
test.after.always(killAllDaemons);

function daemonArgs(data: string): string[] {
  return ['--data', join(fixtures.dir, data), '--port', '0', '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin];
}

/** Blocks this thread for `ms`: the daemon's death is certain before the next call is written. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

test('the second SRP leg goes to the daemon that answered the first: with that daemon gone, the login fails as unavailable', async (t) => {
  const first = await spawnDaemon(t, daemonArgs('srp-first.db'));
  const second = await spawnDaemon(t, daemonArgs('srp-second.db'));
  const keyServer = await TlsKeyServer.start(
    {
      url: [first.url, second.url],
      fingerprint: [first.fingerprint, second.fingerprint],
      timeoutMs: 3_000,
      resumeSessions: true,
      clock: new ManualClock(),
      ...(await clientConfig()),
    },
    new CryptoRandom(),
  );
  t.teardown(() => keyServer.close());
  t.is((await keyServer.login('alice', new Secret(PASSWORDS.alice))).identity.user, 'alice');

  // The password is read between the two legs, after the first daemon answered `begin`: kill it then.
  const password = new (class extends Secret {
    override reveal(): string {
      first.child.kill('SIGKILL');
      pause(300);
      return super.reveal();
    }
  })(PASSWORDS.alice);
  const error = await t.throwsAsync(keyServer.login('alice', password));
  // Sent to the second daemon, `finish` would meet an unknown handle and a different refusal.
  t.like(error, { code: 'KEY_SERVER_UNAVAILABLE', retryable: true });

  const next = await keyServer.login('bob', new Secret(PASSWORDS.bob));
  t.is(next.identity.user, 'bob', 'the next login goes to the daemon that serves');
  t.deepEqual(
    keyServer.daemons().map((daemon) => daemon.ok),
    [false, true],
  );
});

test('one URL and one pin, given as strings, still make a one-daemon adapter', async (t) => {
  const only = await spawnDaemon(t, daemonArgs('single.db'));
  const keyServer = await TlsKeyServer.start(
    { url: only.url, fingerprint: only.fingerprint, timeoutMs: 3_000, resumeSessions: true, ...(await clientConfig()) },
    new CryptoRandom(),
  );
  t.teardown(() => keyServer.close());
  await keyServer.ping();
  t.deepEqual(keyServer.daemons(), [{ url: only.url, fingerprint: only.fingerprint, ok: true }]);
  t.is(keyServer.fingerprint(), only.fingerprint);
});

test('a count of pins that does not match the URLs is refused', async (t) => {
  const options = { url: 'https://127.0.0.1:1,https://127.0.0.1:2', fingerprint: 'ab'.repeat(32), timeoutMs: 1_000, resumeSessions: true };
  await t.throwsAsync(TlsKeyServer.start(options, new CryptoRandom()), { message: /one fingerprint per URL \(1 for 2\)/ });
});
