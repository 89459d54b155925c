import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createGateway } from '../src/app/create-gateway.js';
import { decryptStream, encryptStream, KeygateClient } from '../src/client/index.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import { type LoadClient, medianRound } from './load-client.js';
import { type Figure, roundsNote } from './table.js';

/** The stream's MB/s over `createCipheriv('aes-256-gcm')`'s over the same bytes, same run. */
const GOAL = 0.7;
const MB = 1024 * 1024;
/** What one stream carries, fed in chunks of 1 MiB (a file read's size). */
const CHUNK = MB;

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
    return [
      await row(
        load,
        `encryptStream, ${size / MB} MiB in 1 MiB chunks`,
        size,
        async () => {
          await streamed(plaintext, encryptStream(session, ttag));
        },
        () => gcmPass(plaintext, 'encrypt'),
      ),
      await row(
        load,
        `decryptStream, ${size / MB} MiB in 1 MiB chunks`,
        size,
        async () => {
          await streamed(sealed, decryptStream(session));
        },
        () => gcmPass(plaintext, 'decrypt'),
      ),
    ];
  } finally {
    await gateway.close();
  }
}

async function row(load: LoadClient, figure: string, size: number, stream: () => Promise<void>, floor: () => void): Promise<Figure> {
  const rounds: { floor: number; row: number; value: number }[] = [];
  for (let round = 0; round < load.settings.rounds; round += 1) {
    const floorMs = timedSync(floor);
    const rowMs = await timed(stream);
    rounds.push({ floor: mbps(size, floorMs), row: mbps(size, rowMs), value: floorMs / rowMs });
  }
  const shown = medianRound(rounds);
  return {
    figure,
    measured: `${shown.row.toFixed(0)} MB/s`,
    floor: `node:crypto aes-256-gcm, same bytes: ${shown.floor.toFixed(0)} MB/s`,
    value: shown.value,
    goal: { op: '>=', target: GOAL, unit: 'x' },
    runs: [],
    note: roundsNote(rounds.map((each) => each.value)),
  };
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

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

function timedSync(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}
