import { fork } from 'node:child_process';
import {
  createCipheriv,
  createECDH,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  type JsonWebKey,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type ConnectionOptions, connect, createSecureContext, type TLSSocket } from 'node:tls';
import Koa from 'koa';
import { SystemClock } from '../src/adapters/clock/system-clock.js';
import { MemoryReplayCache } from '../src/adapters/replay-cache/memory-replay-cache.js';
import { jwkThumbprint } from '../src/crypto/jwk-thumbprint.js';
import type { SessionRecord } from '../src/domain/session/session.js';
import { certificateFingerprint } from '../src/keyserver/identity/identity-certificate.js';
import type { Clock } from '../src/ports/clock.port.js';
import { ProofChecker } from '../src/use-cases/proof-check.js';
import { mintProofs } from './proofs.js';

/**
 * The floors: the least work a row's request must do, measured in the same run as the row. HTTP rows
 * stand beside bare Koa (`startBareKoa`), possibly doing one piece of work in place; crypto work beside
 * the raw `node:crypto` call; the daemon hop beside a bare TLS round (`startTlsFloor`). bench/README.md
 * says which floor each row has, and why.
 */

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

/**
 * A bare Koa app answering `body` as JSON: the floor of every HTTP row. Given `before`, it first does
 * that one piece of work with the request's headers (a floor measured in place); `false` answers 401.
 */
export async function startBareKoa(
  body: Record<string, unknown>,
  before?: (headers: IncomingHttpHeaders) => boolean | Promise<boolean>,
): Promise<{ url: string; close(): void }> {
  const app = new Koa();
  app.use(async (ctx) => {
    if (before !== undefined && !(await before(ctx.req.headers))) {
      ctx.status = 401;
      return;
    }
    ctx.body = body;
  });
  const server = createServer(app.callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/**
 * The one thing every sender constraint must do with a request's `DPoP` proof: one ES256 verification
 * of its signature with a ready `KeyObject` of `publicJwk`, and nothing else (no JSON of the proof
 * read, no claim, no replay cache). A request without a proof passes.
 */
export function verifiesProof(publicJwk: JsonWebKey): (headers: IncomingHttpHeaders) => boolean {
  const key = createPublicKey({ key: publicJwk, format: 'jwk' });
  return ({ dpop }) => {
    if (typeof dpop !== 'string') return true;
    const dot = dpop.lastIndexOf('.');
    return verify(
      'sha256',
      Buffer.from(dpop.slice(0, dot)),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(dpop.slice(dot + 1), 'base64url'),
    );
  };
}

/** The gateway's proof checker over a replay cache of `replayCacheSize` and `clock`, for a session bound to `publicJwk`. */
function proofChecker(publicJwk: JsonWebKey, replayCacheSize: number, clock: Clock = new SystemClock()) {
  const checker = new ProofChecker(clock, new MemoryReplayCache(clock, { maxEntries: replayCacheSize }));
  // The replay cache also counts each proof against the session's principal, so the record names one.
  const session = { jkt: jwkThumbprint(publicJwk), identity: { principalId: 'bench' } } as SessionRecord;
  return (htu: string, credential: string, proof: string) =>
    checker.check(session, { method: 'GET', htu, credential, body: undefined, proofs: [proof] });
}

/**
 * The gateway's whole proof check of a request's `DPoP` proof, as a bound session's request gets it:
 * `ProofChecker.check` (parse, key cache, one verify, the bindings to `htu` and the credential, `iat`,
 * the replay cache, as large as the bench gateway's) against a session bound to `publicJwk`, and nothing
 * else (no session, no route, no record). A request without a proof passes; a refused one answers 401.
 */
export function checksProof(
  publicJwk: JsonWebKey,
  htu: string,
  credential: string,
  replayCacheSize: number,
): (headers: IncomingHttpHeaders) => Promise<boolean> {
  const check = proofChecker(publicJwk, replayCacheSize);
  return async ({ dpop }) => {
    if (typeof dpop !== 'string') return true;
    try {
      await check(htu, credential, dpop);
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * The same proof check timed in this process, without HTTP: fresh proofs of one key for a GET with no
 * body, as the DPoP-bound row sends them, checked one after another. Microseconds per check.
 */
export async function proofCheckMicros(seconds = 1): Promise<number> {
  const now = Date.now();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spec = {
    privateJwk: privateKey.export({ format: 'jwk' }),
    publicJwk: publicKey.export({ format: 'jwk' }),
    htm: 'GET',
    htu: 'http://127.0.0.1:8080/api/session',
    credential: randomBytes(32).toString('base64url'),
  };
  const proofs = mintProofs(spec, Math.ceil(seconds * 20_000), now);
  const check = proofChecker(spec.publicJwk, proofs.length + 1, { now: () => now });
  const warm = 200;
  for (const proof of proofs.slice(0, warm)) await check(spec.htu, spec.credential, proof);
  const started = performance.now();
  let runs = 0;
  for (const proof of proofs.slice(warm)) {
    await check(spec.htu, spec.credential, proof);
    runs++;
    if (performance.now() - started > seconds * 1000) break;
  }
  return ((performance.now() - started) * 1000) / runs;
}

/**
 * One export wrap done the cheapest `node:crypto` way (docs/spec.md §3.2): an
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

/** What the hop's floor sends on each connection: one line (the row's floor), or one HTTP/1.1 call as the daemon's HTTP/1.1 transport has it. */
export type FloorRound = 'line' | 'https';

/** A bare TLS floor server in a process of its own, and rounds against it. */
export interface TlsFloor {
  /** One connect + one request + its reply + close; answers whether the connect resumed its TLS session. */
  round(): Promise<boolean>;
  close(): void;
}

/**
 * The floor of the daemon hop: a bare Node TLS 1.3 server in a process of its own that asks for a
 * client certificate and admits a pinned one, and here, with the same client certificate, rounds of a
 * resumed connect + one small request + its reply + close. The client's CA, certificate and key are
 * parsed once into one secure context, as the gateway's dialer does: passing them as PEM to every
 * connect would make the floor pay for parsing them each time.
 *
 * `kind` says what travels on each connection: `line`, one line each way (the row's floor); `https`,
 * one `POST` of an export's size by `node:https` to a bare `node:https` server answering an export's
 * reply, that is one call of the daemon's HTTP/1.1 transport with no key server behind it.
 * `keep` is what the client keeps of each session ticket for the next connect: the ticket as Node
 * gives it (the row's floor), or what the gateway's dialer keeps (`withoutPeerCertificate`).
 */
export async function startTlsFloor(
  client: { readonly cert: string; readonly key: string },
  kind: FloorRound = 'line',
  keep: (ticket: Buffer) => Buffer = (ticket) => ticket,
): Promise<TlsFloor> {
  const server = fork(new URL('./tls-floor-server.ts', import.meta.url).pathname, [certificateFingerprint(client.cert), kind], {
    execArgv: ['--import', 'tsx/esm'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port, ca } = await new Promise<{ port: number; ca: string }>((ready, fail) => {
    server.once('message', ready as never);
    server.once('exit', (code) => fail(new Error(`the TLS floor server exited (${code}) before it listened`)));
  });
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
  return {
    round: () =>
      new Promise<boolean>((done, fail) => {
        const socket = connect({ ...options, ...(session ? { session } : {}) });
        socket.setNoDelay(true);
        socket.on('session', (ticket: Buffer) => (session = keep(ticket)));
        let resumed = false;
        socket.once('secureConnect', () => {
          resumed = socket.isSessionReused();
          if (kind === 'line') {
            socket.write('{"op":"ping"}\n');
            socket.once('data', () => socket.end());
          } else {
            exportCall(socket).then(() => socket.end(), fail);
          }
        });
        socket.once('close', () => done(resumed));
        socket.once('error', fail);
      }),
    close: () => server.kill('SIGTERM'),
  };
}

/**
 * Milliseconds per round of `floor`, one after another in this process for `seconds`. Every round
 * must resume its TLS session: a floor of full handshakes would flatter the hop.
 */
export async function floorRoundMs(floor: TlsFloor, seconds: number): Promise<number> {
  let fullHandshakes = 0;
  const ms = await msPerRound(seconds, async () => {
    if (!(await floor.round())) fullHandshakes++;
  });
  if (fullHandshakes > 0) throw new Error(`the TLS floor made ${fullHandshakes} full handshakes`);
  return ms;
}

/** Milliseconds per call of `round`, called one after another in this process for `seconds`. */
export async function msPerRound(seconds: number, round: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let rounds = 0;
  while (performance.now() - started < seconds * 1000) {
    await round();
    rounds++;
  }
  return (performance.now() - started) / rounds;
}

const EXPORT_CALL = Buffer.from(JSON.stringify({ ttag: 'k3AmQ+d4foT71lBbBfmzvGpYiGfuYlN/' }));

/** One `POST` shaped like the key-server protocol's export call, by `node:https` on `socket`; resolves once its reply is read. */
function exportCall(socket: TLSSocket): Promise<void> {
  return new Promise((done, fail) => {
    const call = request({
      createConnection: () => socket,
      method: 'POST',
      path: '/v1/op/exportKey',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'content-length': EXPORT_CALL.length,
        authorization: `Bearer ${'t'.repeat(43)}`,
      },
    });
    call.once('error', fail);
    call.once('response', (reply) => {
      reply.resume();
      reply.once('end', () => done());
    });
    call.end(EXPORT_CALL);
  });
}
