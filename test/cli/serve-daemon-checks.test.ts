import { createServer } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';
import { clientEnv, createTestClient, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { scratchDir } from '../_support/scratch-dirs.js';

test.after.always(killAllGateways);
test.after.always(killAllDaemons);

const ADMIN = 'admin-password-daemon-checks';

function daemonArgs(dir: string, name: string): string[] {
  return ['--data', join(dir, `${name}.db`), '--port', '0', '--admin-password', ADMIN];
}

/** A loopback port nothing listens on (bound, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

test('keygate serve checks each daemon at boot and warns, before listening, naming the daemon and why it cannot be used', async (t) => {
  const dir = scratchDir('keygate-daemon-checks-');
  const stranger = await createTestClient();
  const [good, pinnedWrong, refusing] = await Promise.all([
    spawnDaemon(t, daemonArgs(dir, 'good')),
    spawnDaemon(t, daemonArgs(dir, 'pinned-wrong')),
    // Trusts another gateway's certificate only: this gateway's is refused (mutual TLS).
    spawnDaemon(t, [...daemonArgs(dir, 'refusing'), '--client-fingerprint', stranger.fingerprint]),
  ]);
  const unreachable = `https://127.0.0.1:${await closedPort()}`;
  const wrongPin = 'ab'.repeat(32);
  const gateway = await spawnGateway(
    t,
    {
      ...(await clientEnv()),
      TE_GATEWAY_KEYSERVER_URL: [good.url, unreachable, pinnedWrong.url, refusing.url].join(','),
      TE_GATEWAY_KEYSERVER_FINGERPRINT: [good.fingerprint, 'cd'.repeat(32), wrongPin, refusing.fingerprint].join(','),
      TE_GATEWAY_KEYSERVER_TIMEOUT_MS: '5000',
    },
    [],
    { oneStream: true },
  );
  const lines = gateway.output().split('\n');
  const listening = lines.findIndex((line) => line.startsWith('keygate: listening '));
  const warned = (url: string) => lines.findIndex((line) => line.startsWith(`keygate: warning: key-server daemon ${url}: `));
  const expectations = [
    [unreachable, /: unreachable \(ECONNREFUSED\)/],
    [
      pinnedWrong.url,
      new RegExp(`: pin mismatch: its certificate is ${pinnedWrong.fingerprint}, TE_GATEWAY_KEYSERVER_FINGERPRINT pins ${wrongPin}`),
    ],
    [
      refusing.url,
      /: client certificate refused \(mutual TLS\): the daemon does not trust this gateway's certificate [0-9a-f]{64}; add it to the daemon's --client-fingerprint or --client-ca/,
    ],
  ] as const;
  for (const [url, cause] of expectations) {
    const index = warned(url);
    t.true(index !== -1 && index < listening, `${url} warned before listening:\n${gateway.output()}`);
    t.regex(lines[index] ?? '', cause);
  }
  t.log(lines.filter((line) => line.startsWith('keygate: warning: key-server daemon ')).join('\n'));
  t.is(warned(good.url), -1, 'the daemon that answers is not warned about');
  const login = await call(gateway.url, 'POST', '/login', { body: { user: 'admin', password: ADMIN } });
  t.is(login.status, 200, 'the boot went on, and the daemon that answers serves');
});

test('a daemon that refuses the client certificate by its --client-ca is warned about at boot, and a request refused by it names mutual TLS', async (t) => {
  const dir = scratchDir('keygate-daemon-ca-refusal-');
  const stranger = await createTestClient();
  const refusing = await spawnDaemon(t, [...daemonArgs(dir, 'ca-refusing'), '--client-ca', stranger.certPath]);
  const gateway = await spawnGateway(
    t,
    { ...(await clientEnv()), TE_GATEWAY_KEYSERVER_URL: refusing.url, TE_GATEWAY_KEYSERVER_FINGERPRINT: refusing.fingerprint },
    [],
    { oneStream: true },
  );
  const lines = gateway.output().split('\n');
  const warning = lines.findIndex((line) =>
    line.startsWith(`keygate: warning: key-server daemon ${refusing.url}: client certificate refused (mutual TLS)`),
  );
  t.true(warning !== -1 && warning < lines.findIndex((line) => line.startsWith('keygate: listening ')), gateway.output());
  const login = await call(gateway.url, 'POST', '/api/session', { body: { user: 'admin', password: ADMIN } });
  t.is(login.status, 503, login.text);
  t.is(login.body.code, 'KEY_SERVER_UNAVAILABLE');
  t.regex(String(login.body.detail), /mutual TLS/, 'the refusal says what to change');
});
