import { connect } from 'node:net';
import test from 'ava';
import { startGateway } from '../_support/gateway.js';

test('close cuts a request still running at the end of the drain, and says so in the log', async (t) => {
  const gw = await startGateway(t);
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(gw.url).port) });
  await new Promise<void>((ready) => socket.once('connect', ready));
  const ended = new Promise<void>((done) => socket.once('close', () => done()));
  socket.on('error', () => undefined);
  // A body that never arrives in full: the request stays in flight until the drain gives up on it.
  socket.write('POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
  await new Promise<void>((got) => socket.once('data', () => got()));
  const started = Date.now();
  await gw.gateway.close({ drainMs: 300 });
  const took = Date.now() - started;
  t.true(took >= 290 && took < 2_000, `${took} ms`);
  await ended;
  t.true(
    gw.logger.lines.some(
      (line) => line.message === 'requests still running at the end of the drain were cut' && line.fields.requests === 1,
    ),
  );
});

test('close with nothing in flight returns at once and cuts nothing', async (t) => {
  const gw = await startGateway(t);
  t.is((await gw.call('GET', '/health')).status, 200);
  const started = Date.now();
  await gw.gateway.close({ drainMs: 5_000 });
  t.true(Date.now() - started < 1_000);
  t.false(gw.logger.lines.some((line) => line.message.includes('cut')));
});
