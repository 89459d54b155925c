import { connect, type Socket } from 'node:net';
import test from 'ava';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/** `keygate serve` as a process: SIGTERM and SIGINT stop it gracefully. */
test.after.always(killAllGateways);

const ADMIN_PASSWORD = 'admin-password-0';

function embeddedEnv(): Record<string, string> {
  return {
    TE_GATEWAY_DATA_DIR: scratchDir('keygate-serve-'),
    TE_KEYSERVER_ADMIN_PASSWORD: ADMIN_PASSWORD,
    TE_KEYSERVER_SEED: '',
    TE_GATEWAY_LOG_LEVEL: 'info',
  };
}

/** A raw HTTP/1.1 client connection whose received bytes the test can wait on. */
async function rawConnection(port: number): Promise<{ socket: Socket; until(pattern: RegExp): Promise<string> }> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((ready, fail) => socket.once('connect', ready).once('error', fail));
  let received = '';
  const waiters: (() => void)[] = [];
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    wakeAll();
  });
  socket.on('end', wakeAll);
  return {
    socket,
    until: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(received)) return resolve(received);
          if (socket.readableEnded) return reject(new Error(`connection ended without ${pattern}: ${received}`));
          waiters.push(check);
        };
        check();
      }),
  };
}

/** True once a new connection to `port` is refused: the server stopped accepting. */
async function refusesConnections(port: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const refused = await new Promise<boolean>((answer) => {
      const probe = connect({ host: '127.0.0.1', port });
      probe.once('connect', () => (probe.destroy(), answer(false)));
      probe.once('error', () => answer(true));
    });
    if (refused) return true;
    await new Promise((done) => setTimeout(done, 20));
  }
  return false;
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal}: stops accepting, answers the request in flight, then exits 0`, async (t) => {
    const gateway = await spawnGateway(t, embeddedEnv());
    const body = JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD });
    const { socket, until } = await rawConnection(gateway.port);
    // Expect: 100-continue makes the server say it holds the request before the body is sent.
    socket.write(
      `POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await until(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    socket.write(body.slice(0, 10));

    gateway.child.kill(signal);
    t.true(await refusesConnections(gateway.port), 'no new connection is accepted once the signal is in');
    t.is(gateway.child.exitCode, null, 'still running while a request is in flight');
    socket.write(body.slice(10));
    const reply = await until(/\r\n\r\n\{.*\}$/s);
    t.regex(reply, /HTTP\/1\.1 200 OK/);
    t.regex(reply, /\r\nConnection: close\r\n/i);
    t.regex(reply, /"sessionId":"[A-Za-z0-9_-]{43}"/);
    t.is(await gateway.exited(), 0);
    t.regex(gateway.output(), /"msg":"shutting down"/);
    socket.destroy();
  });
}

test('an idle keep-alive connection does not hold the shutdown open', async (t) => {
  const gateway = await spawnGateway(t, embeddedEnv());
  const { socket, until } = await rawConnection(gateway.port);
  socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
  await until(/"ok":true/);
  const started = Date.now();
  t.is(await gateway.stop('SIGTERM'), 0);
  t.true(Date.now() - started < 3_000, `exited after ${Date.now() - started} ms`);
  socket.destroy();
});
