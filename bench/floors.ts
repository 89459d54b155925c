import { fork } from 'node:child_process';
import { createCipheriv, createECDH, generateKeyPairSync, hkdfSync, randomBytes, sign, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect, createSecureContext, type ConnectionOptions } from 'node:tls';
import { certificateFingerprint } from '../src/keyserver/identity/identity-certificate.js';
import Koa from 'koa';

/** Mean microseconds of `work` over `seconds` of repeated calls on this thread (after a short warm-up). */
export function microsPerCall(work: () => void, seconds = 1): number {
  for (let i = 0; i < 200; i++) work();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let runs = 0;
  while (performance.now() < deadline) {
    for (let i = 0; i < 20; i++) work();
    runs += 20;
  }
  return ((performance.now() - started) * 1000) / runs;
}

/** A bare Koa app answering `body` as JSON: the floor of every HTTP row. */
export async function startBareKoa(body: Record<string, unknown>): Promise<{ url: string; close(): void }> {
  const app = new Koa();
  app.use(async (ctx) => {
    ctx.body = body;
  });
  const server = createServer(app.callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/**
 * One export wrap done the cheapest `node:crypto` way (api-surface.md "The export wrap"): an
 * ephemeral `createECDH` key, the shared secret from the raw client point, `hkdfSync`, AES-256-GCM
 * over a 16-byte key. Microseconds per wrap.
 */
export function rawWrapMicros(): number {
  const client = createECDH('prime256v1');
  client.generateKeys();
  const clientPoint = client.getPublicKey();
  const dataKey = randomBytes(16);
  return microsPerCall(() => {
    const ecdh = createECDH('prime256v1');
    const gatewayPoint = ecdh.generateKeys();
    const shared = ecdh.computeSecret(clientPoint);
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const key = Buffer.from(hkdfSync('sha256', shared, salt, 'keygate export v1', 32));
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const out = Buffer.concat([cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
    if (out.length + gatewayPoint.length === 0) throw new Error('unreachable');
  });
}

/** One raw ES256 verification (64-byte r||s) with a ready `KeyObject`. Microseconds per verify. */
export function rawVerifyMicros(seconds = 1): number {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const input = Buffer.from(randomBytes(300).toString('base64url'));
  const signature = sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return microsPerCall(() => {
    if (!verify('sha256', input, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)) throw new Error('bad signature');
  }, seconds);
}

/**
 * The floor of the daemon hop: a bare Node TLS 1.3 server in a process of its own that asks for a
 * client certificate and admits a pinned one, and here, with the same client certificate, a resumed
 * connect + one small request + its reply + close, one after another. The client's CA, certificate
 * and key are parsed once into one secure context, as the gateway's dialer does: passing them as PEM
 * to every connect would make the floor pay for parsing them each time. Milliseconds per round.
 */
export async function tlsHopFloorMs(client: { readonly cert: string; readonly key: string }, seconds = 2): Promise<number> {
  const server = fork(new URL('./tls-floor-server.ts', import.meta.url).pathname, [certificateFingerprint(client.cert)], {
    execArgv: ['--import', 'tsx/esm'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { port, ca } = await new Promise<{ port: number; ca: string }>((ready) => server.once('message', ready as never));
    const secureContext = createSecureContext({ ca, cert: client.cert, key: client.key, minVersion: 'TLSv1.3' });
    const options: ConnectionOptions = {
      host: '127.0.0.1',
      port,
      secureContext,
      servername: 'localhost',
      minVersion: 'TLSv1.3',
      checkServerIdentity: () => undefined,
    };
    let session: Buffer | undefined;
    let resumed = 0;
    const once = () =>
      new Promise<void>((done, fail) => {
        const socket = connect({ ...options, ...(session ? { session } : {}) });
        socket.setNoDelay(true);
        socket.on('session', (ticket: Buffer) => (session = ticket));
        socket.once('secureConnect', () => {
          if (socket.isSessionReused()) resumed++;
          socket.write('{"op":"ping"}\n');
        });
        socket.once('data', () => socket.end());
        socket.once('close', () => done());
        socket.once('error', fail);
      });
    for (let i = 0; i < 50; i++) await once();
    const started = performance.now();
    let runs = 0;
    resumed = 0;
    while (performance.now() - started < seconds * 1000) {
      await once();
      runs++;
    }
    // A floor of full handshakes would flatter the hop: every measured round must have resumed.
    if (resumed !== runs) throw new Error(`the TLS floor resumed ${resumed} of ${runs} connections`);
    return (performance.now() - started) / runs;
  } finally {
    server.kill('SIGTERM');
  }
}
