import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import test from 'ava';
import { serveFrames } from '../../src/keyserver/daemon/daemon-frames.js';
import type { DaemonAnswerer } from '../../src/keyserver/daemon/daemon-handler.js';

const REQUEST_TIMEOUT_MS = 200;

/** The framed transport on a plain socket, answering every call with its path; the client's socket. */
async function framedPair(
  t: import('ava').ExecutionContext,
  answer: DaemonAnswerer = async (call) => ({ status: 200, body: call.path }),
): Promise<Socket> {
  const server = createServer((socket) => serveFrames(socket, answer, () => undefined, { requestTimeoutMs: REQUEST_TIMEOUT_MS }));
  t.teardown(() => server.close());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  socket.on('error', () => undefined);
  return socket;
}

const closedAfter = (socket: Socket, from: number) =>
  new Promise<number>((done) => socket.once('close', () => done(performance.now() - from)));

test('a framed connection that sends no complete request in time is closed, as one that trickles a request', async (t) => {
  const idle = await framedPair(t);
  const idleMs = await closedAfter(idle, performance.now());
  t.true(idleMs >= REQUEST_TIMEOUT_MS - 20 && idleMs < 3_000, `${idleMs} ms`);
  const trickling = await framedPair(t);
  const started = performance.now();
  const drip = setInterval(() => trickling.write(' '), 20);
  t.teardown(() => clearInterval(drip));
  const tricklingMs = await closedAfter(trickling, started);
  t.true(tricklingMs >= REQUEST_TIMEOUT_MS - 20 && tricklingMs < 3_000, `${tricklingMs} ms`);
});

test('the time for a request starts again after each answer, and does not run while a call is answered', async (t) => {
  let release: () => void = () => undefined;
  const slow: DaemonAnswerer = (call) =>
    call.path === '/slow'
      ? new Promise((done) => (release = () => done({ status: 200, body: 'slow' })))
      : Promise.resolve({ status: 200, body: call.path });
  const socket = await framedPair(t, slow);
  const answers: string[] = [];
  socket.on('data', (chunk: Buffer) => answers.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  socket.write('{"method":"POST","path":"/slow"}\n');
  // Longer than the request time: the call is being answered, so the connection stays.
  await new Promise((settle) => setTimeout(settle, REQUEST_TIMEOUT_MS * 2));
  t.false(socket.destroyed);
  const answered = performance.now();
  const closed = closedAfter(socket, answered);
  release();
  const ms = await closed;
  t.deepEqual(answers, ['{"status":200,"body":"slow"}']);
  t.true(ms >= REQUEST_TIMEOUT_MS - 20, `${ms} ms after the answer`);
});
