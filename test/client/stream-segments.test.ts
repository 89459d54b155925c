import { randomBytes } from 'node:crypto';
import test from 'ava';
import { Segmenter } from '../../src/client/stream-segments.js';

/**
 * docs/spec.md §4.5a (Streams items 3-4): the segmenter cuts a byte stream into pieces of one size and
 * holds the latest full piece back until a byte follows it. Whole pieces inside a chunk are lent as
 * views of it (WebCrypto copies what it is handed when called), so only the piece held across chunks
 * is copied.
 */

const SIZE = 4096;

/** Pushes every chunk, answering each piece with whether it is a view of the chunk it came in. */
function cut(chunks: Uint8Array[]): { pieces: Buffer[]; views: boolean[]; rest: Buffer } {
  const segmenter = new Segmenter(SIZE);
  const pieces: Buffer[] = [];
  const views: boolean[] = [];
  for (const chunk of chunks) {
    for (const piece of segmenter.push(chunk)) {
      pieces.push(Buffer.from(piece)); // lent until the next push
      views.push(piece.buffer === chunk.buffer);
    }
  }
  return { pieces, views, rest: Buffer.from(segmenter.rest()) };
}

function chunksOf(data: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < data.length; offset += size) chunks.push(new Uint8Array(data.subarray(offset, offset + size)));
  return chunks;
}

test('the pieces, joined with the rest, are the bytes pushed, whatever the chunks', (t) => {
  const data = randomBytes(5 * SIZE + 123);
  for (const chunk of [1, 1000, SIZE - 1, SIZE, SIZE + 1, 3 * SIZE, data.length]) {
    const { pieces, rest } = cut(chunksOf(data, chunk));
    t.true(
      pieces.every((piece) => piece.length === SIZE),
      `chunks of ${chunk}`,
    );
    t.is(pieces.length, 5, `chunks of ${chunk}: the last full piece or the short one is held back`);
    t.true(Buffer.concat([...pieces, rest]).equals(data), `chunks of ${chunk}`);
  }
});

test('a whole piece inside a chunk with bytes after it is a view, also after a piece held from the chunk before', (t) => {
  const aligned = cut(chunksOf(randomBytes(8 * SIZE + 1), 4 * SIZE));
  t.deepEqual(aligned.views, [true, true, true, false, true, true, true, false], 'the last piece of each chunk is held, then copied');

  const straddling = cut(chunksOf(randomBytes(3 * (3 * SIZE + 100)), 3 * SIZE + 100));
  t.deepEqual(
    straddling.views,
    [true, true, true, false, true, true, false, true, true],
    'after a piece completed from two chunks, the next whole ones are views again',
  );
});
