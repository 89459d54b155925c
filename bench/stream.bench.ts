import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createGateway } from '../src/app/create-gateway.js';
import { decryptStream, encryptStream, KeygateClient } from '../src/client/index.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import { type LoadClient, medianRound } from './load-client.js';
import { type Figure, ratios, roundsNote } from './table.js';
import { cpuSpent, type ThreadCpu, threadCpu } from './thread-cpu.js';

/** The stream's MB/s over `createCipheriv('aes-256-gcm')`'s over the same bytes, same run. */
const GOAL = 0.7;
const MB = 1024 * 1024;
/** What one stream carries, fed in chunks of 1 MiB (a file read's size). */
const CHUNK = MB;
/** The client's window of segments in flight (src/client/stream-segments.ts). */
const IN_FLIGHT = 8;

/**
 * The stream rows (docs/spec.md §4.5a, Streams): encryptStream and decryptStream in Node over one
 * stream of 64 MiB (16 when quick) through a gateway (embedded key server, deployed logging), its
 * one data-key request included, beside the least work of the same bytes: one AES-256-GCM pass of
 * node:crypto fed the same chunks. Rounds alternate (floor, then row); the median round is shown.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...DEPLOYED },
    { logger: deployedLogger() },
  );
  try {
    const { url } = await gateway.listen(0, '127.0.0.1');
    const session = new KeygateClient({ baseUrl: url }).resume(await signIn(url));
    const { ttag } = await session.createKey({ keyLen: 32 });
    const size = (load.settings.rounds === 1 ? 16 : 64) * MB;
    const plaintext = randomBytes(size);
    const sealed = await streamed(plaintext, encryptStream(session, ttag), true); // warm-up of both sides
    await streamed(sealed, decryptStream(session));
    const empty = await streamed(new Uint8Array(0), encryptStream(session, ttag), true);
    const fixed = {
      encrypt: await timed(() => streamed(new Uint8Array(0), encryptStream(session, ttag))),
      decrypt: await timed(() => streamed(empty, decryptStream(session))),
    };
    return [
      await row(
        load,
        `encryptStream, ${size / MB} MiB in 1 MiB chunks`,
        size,
        async () => {
          await streamed(plaintext, encryptStream(session, ttag));
        },
        () => gcmPass(plaintext, 'encrypt'),
        () => webCryptoPass(plaintext, 'encrypt'),
        fixed.encrypt,
      ),
      await row(
        load,
        `decryptStream, ${size / MB} MiB in 1 MiB chunks`,
        size,
        async () => {
          await streamed(sealed, decryptStream(session));
        },
        () => gcmPass(plaintext, 'decrypt'),
        () => webCryptoPass(sealed, 'decrypt'),
        fixed.decrypt,
      ),
    ];
  } finally {
    await gateway.close();
  }
}

/**
 * Alternated rounds of floor and row; the note adds WebCrypto alone over the same segments (no stream,
 * no header, no data key): what a stream's segments would cost where the runtime has no AES-GCM of
 * its own to offer (a browser; in Node the stream uses node:crypto's, src/client/segment-aead.ts), the time of
 * an empty stream, the part of a stream's time that does not grow with its size, and the CPU the
 * stream took over the floor's (its main thread, and all its threads): figures a loaded machine moves
 * much less than rates. On two cores left to it, a stream runs at best at the floor's CPU over the
 * larger of its main thread's and half of all its threads'.
 */
async function row(
  load: LoadClient,
  figure: string,
  size: number,
  stream: () => Promise<unknown>,
  floor: () => void,
  webCrypto: () => Promise<void>,
  fixedMs: number,
): Promise<Figure> {
  const rounds: { floor: number; row: number; webCrypto: number; value: number; cpu: CpuRatios | undefined }[] = [];
  for (let round = 0; round < load.settings.rounds; round += 1) {
    const beforeFloor = threadCpu();
    const floorMs = timedSync(floor);
    const beforeRow = threadCpu();
    const rowMs = await timed(stream);
    const cpu = cpuRatios(cpuSpent(beforeFloor, beforeRow), cpuSpent(beforeRow, threadCpu()));
    const webCryptoMs = await timed(webCrypto);
    rounds.push({ floor: mbps(size, floorMs), row: mbps(size, rowMs), webCrypto: floorMs / webCryptoMs, value: floorMs / rowMs, cpu });
  }
  const shown = medianRound(rounds);
  return {
    figure,
    measured: `${shown.row.toFixed(0)} MB/s`,
    floor: `node:crypto aes-256-gcm, same bytes: ${shown.floor.toFixed(0)} MB/s`,
    value: shown.value,
    goal: { op: '>=', target: GOAL, unit: 'x' },
    runs: [],
    note: `${roundsNote(rounds.map((each) => each.value))}; WebCrypto alone over the same segments, ${IN_FLIGHT} in flight, over the floor: ${ratios(rounds.map((each) => each.webCrypto))}; an empty stream (its data-key request and key derivation) took ${fixedMs.toFixed(1)} ms${cpuNote(rounds.map((each) => each.cpu))}`,
  };
}

/** The stream's CPU over the floor's in one round: its main thread's, all its threads'. */
interface CpuRatios {
  readonly main: number;
  readonly all: number;
}

function cpuRatios(floor: ThreadCpu | undefined, row: ThreadCpu | undefined): CpuRatios | undefined {
  if (floor === undefined || row === undefined || floor.allMs <= 0) return undefined;
  return { main: row.mainMs / floor.allMs, all: row.allMs / floor.allMs };
}

/** The CPU figures of every round, each list with its median, and the best rate two idle cores would allow (empty without /proc). */
function cpuNote(rounds: readonly (CpuRatios | undefined)[]): string {
  const known = rounds.filter((each): each is CpuRatios => each !== undefined);
  if (known.length === 0) return '';
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const main = known.map((each) => each.main);
  const all = known.map((each) => each.all);
  const best = 1 / Math.max(median(main), median(all) / 2);
  return `; CPU over the floor's, main thread ${median(main).toFixed(2)}x (${ratios(main)}), all threads ${median(all).toFixed(2)}x (${ratios(all)}), so at best ${best.toFixed(2)}x on two idle cores`;
}

/** WebCrypto's AES-GCM over the segments of the default size, a window of IN_FLIGHT calls: a browser's stream's own floor. */
async function webCryptoPass(bytes: Uint8Array, direction: 'encrypt' | 'decrypt'): Promise<void> {
  const usage = direction === 'encrypt' ? 'encrypt' : 'decrypt';
  const key = await crypto.subtle.importKey('raw', randomBytes(32), 'AES-GCM', false, [usage]);
  const segment = 256 * 1024;
  const inFlight: Promise<unknown>[] = [];
  for (let offset = 0; offset < bytes.length; offset += segment) {
    const piece = bytes.subarray(offset, offset + segment) as Uint8Array<ArrayBuffer>;
    const iv = randomBytes(12);
    // A decryption under a random key fails its tag after doing the work; its rejection is expected.
    inFlight.push(
      direction === 'encrypt'
        ? crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, piece)
        : crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, piece).catch(() => undefined),
    );
    if (inFlight.length > IN_FLIGHT) await inFlight.shift();
  }
  await Promise.all(inFlight);
}

/** The bytes through a transform in chunks of 1 MiB, its output read to the end (kept only when asked). */
async function streamed(bytes: Uint8Array, transform: TransformStream<Uint8Array, Uint8Array>, keep = false): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += CHUNK) controller.enqueue(bytes.subarray(offset, offset + CHUNK));
      controller.close();
    },
  });
  await source.pipeThrough(transform).pipeTo(new WritableStream({ write: (part) => void (keep && parts.push(part)) }));
  return Buffer.concat(parts);
}

/** One AES-256-GCM pass over the bytes, fed in the same chunks: the least work a stream of them does. */
function gcmPass(bytes: Uint8Array, direction: 'encrypt' | 'decrypt'): void {
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = direction === 'encrypt' ? createCipheriv('aes-256-gcm', key, iv) : createDecipheriv('aes-256-gcm', key, iv);
  for (let offset = 0; offset < bytes.length; offset += CHUNK) cipher.update(bytes.subarray(offset, offset + CHUNK));
  if (direction === 'encrypt') cipher.final();
}

const mbps = (size: number, ms: number) => size / MB / (ms / 1000);

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

function timedSync(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}
