import type { Bytes } from './base64.js';
import { type SegmentAead, segmentAead } from './segment-aead.js';
import { StreamDecryptError, StreamFormatError } from './stream-errors.js';
import { declaredHeaderLength, HEADER_PREFIX_BYTES, MAX_SEGMENTS, parseHeader, type StreamHeader, segmentNonce } from './stream-format.js';

/**
 * Cuts a byte stream into pieces of one size, holding the latest full piece back until more bytes
 * come: only the end of the stream says which piece is the last (docs/spec.md §4.5a, Streams item 4).
 * The pieces `push` answers are lent until the next `push`: the caller hands them to WebCrypto at
 * once, which copies its input when called, and their buffers are then filled again.
 */
export class Segmenter {
  readonly #size: number;
  #current: Bytes;
  #fill = 0;
  /** Buffers answered by the last push (in use until the next), and those free to fill again. */
  #lent: Bytes[] = [];
  readonly #free: Bytes[] = [];

  constructor(size: number) {
    this.#size = size;
    this.#current = new Uint8Array(size);
  }

  /**
   * Takes a chunk; answers the pieces now known not to be the last. A whole piece inside the chunk
   * with more bytes after it is answered as a view of the chunk, not a copy, whether or not a piece
   * held from an earlier chunk was completed first: only the held piece is ever copied.
   */
  push(chunk: Uint8Array): Bytes[] {
    this.#free.push(...this.#lent);
    this.#lent = [];
    const ready: Bytes[] = [];
    const viewable = chunk.buffer instanceof ArrayBuffer;
    for (let offset = 0; offset < chunk.length; ) {
      if (this.#fill === this.#size) {
        // A byte follows the held piece, so it is not the last: hand it on, then look for views again.
        ready.push(this.#current);
        this.#lent.push(this.#current);
        this.#current = this.#free.pop() ?? new Uint8Array(this.#size);
        this.#fill = 0;
      }
      if (this.#fill === 0 && viewable && chunk.length - offset > this.#size) {
        ready.push(chunk.subarray(offset, offset + this.#size) as Bytes);
        offset += this.#size;
        continue;
      }
      const taken = Math.min(this.#size - this.#fill, chunk.length - offset);
      this.#current.set(chunk.subarray(offset, offset + taken), this.#fill);
      this.#fill += taken;
      offset += taken;
    }
    return ready;
  }

  /** What is held at the end of the stream: the last piece, 0 to `size` bytes. */
  rest(): Bytes {
    return this.#current.subarray(0, this.#fill);
  }
}

/**
 * Segments in flight at most once a call returns: WebCrypto runs them on the thread pool side by
 * side, and a window (not a batch) keeps the pool busy across chunks. (Node's own cipher is done
 * with each before the next starts.)
 */
const IN_FLIGHT = 8;

type SegmentWork = (iv: Bytes, piece: Bytes, index: number) => Promise<readonly Bytes[]>;

/** AES-256-GCM of the segments in order under K, each with the nonce of its index (docs/spec.md §4.5a, Streams item 3). */
export class SegmentCipher {
  readonly #aead: SegmentAead;
  readonly #prefix: Bytes;
  readonly #pending: Promise<readonly Bytes[]>[] = [];
  #next = 0;

  constructor(key: CryptoKey, header: StreamHeader, aead: SegmentAead = segmentAead(key)) {
    this.#aead = aead;
    this.#prefix = header.noncePrefix;
  }

  /**
   * Seals pieces (the last one flagged when `isLast`), handing finished segments to `out` in order, a
   * segment in one part or more.
   */
  seal(pieces: readonly Bytes[], isLast: boolean, out: (segment: Bytes) => void): Promise<void> {
    return this.#run(pieces, isLast, out, (iv, piece) => this.#aead.seal(iv, piece));
  }

  /** Opens segments (ciphertext || tag); a tag that does not verify is StreamDecryptError naming the segment. */
  open(pieces: readonly Bytes[], isLast: boolean, out: (plaintext: Bytes) => void): Promise<void> {
    return this.#run(pieces, isLast, out, async (iv, piece, index) => {
      try {
        return [await this.#aead.open(iv, piece)];
      } catch (cause) {
        throw new StreamDecryptError(index, { cause });
      }
    });
  }

  /**
   * Starts every piece at once (WebCrypto copies a piece when called, and Node's cipher reads it before
   * answering, so a piece may be a view of the caller's chunk), then hands on finished ones in order
   * until at most IN_FLIGHT wait, none at the end.
   */
  async #run(pieces: readonly Bytes[], isLast: boolean, out: (bytes: Bytes) => void, work: SegmentWork): Promise<void> {
    pieces.forEach((piece, offset) => {
      const index = this.#take();
      const started = work(segmentNonce(this.#prefix, index, isLast && offset === pieces.length - 1), piece, index);
      started.catch(() => undefined); // a failure is thrown where it is awaited, in order
      this.#pending.push(started);
    });
    const keep = isLast ? 0 : IN_FLIGHT;
    while (this.#pending.length > keep) for (const part of await this.#pending.shift()!) out(part);
  }

  #take(): number {
    if (this.#next >= MAX_SEGMENTS) throw new StreamFormatError('a stream holds at most 2^32 segments');
    return this.#next++;
  }
}

/** Gathers a stream's first bytes until its header is whole; answers it and the bytes after it. */
export class HeaderReader {
  #bytes: Bytes = new Uint8Array(0);

  push(chunk: Uint8Array): { header: StreamHeader; rest: Uint8Array } | undefined {
    let offset = 0;
    for (;;) {
      const wanted = this.#bytes.length < HEADER_PREFIX_BYTES ? HEADER_PREFIX_BYTES : declaredHeaderLength(this.#bytes);
      if (this.#bytes.length === wanted && wanted > HEADER_PREFIX_BYTES) {
        return { header: parseHeader(this.#bytes), rest: chunk.subarray(offset) };
      }
      const taken = Math.min(wanted - this.#bytes.length, chunk.length - offset);
      if (taken === 0) return undefined;
      const grown = new Uint8Array(this.#bytes.length + taken);
      grown.set(this.#bytes);
      grown.set(chunk.subarray(offset, offset + taken), this.#bytes.length);
      this.#bytes = grown;
      offset += taken;
    }
  }
}
