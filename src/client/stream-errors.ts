/**
 * Why a stream of docs/spec.md §4.5a (Streams) does not read: thrown by the client, never answered by
 * the gateway. A page branches on `code`; a refusal of the data-key request stays a KeygateApiError.
 */
export abstract class StreamError extends Error {
  override readonly name: string = 'StreamError';
  abstract readonly code: 'STREAM_MALFORMED' | 'STREAM_DECRYPT_FAILED' | 'STREAM_KEY_MISMATCH' | 'STREAM_CONTEXT_MISMATCH';
}

/** A header or a length that breaks the format's rules: not a stream, another format version, truncated. */
export class StreamFormatError extends StreamError {
  override readonly name = 'StreamFormatError';
  readonly code = 'STREAM_MALFORMED';
}

/** A segment whose GCM tag does not verify: reordered, dropped, duplicated, cut, extended or changed. */
export class StreamDecryptError extends StreamError {
  override readonly name = 'StreamDecryptError';
  readonly code = 'STREAM_DECRYPT_FAILED';
  /** The index of the segment that failed, counted from 0. */
  readonly segment: number;

  constructor(segment: number, options?: ErrorOptions) {
    super(`segment ${segment} does not authenticate: the stream was reordered, cut, extended or changed`, options);
    this.segment = segment;
  }
}

/** A header naming another key than the one the reader expected. */
export class StreamKeyMismatchError extends StreamError {
  override readonly name = 'StreamKeyMismatchError';
  readonly code = 'STREAM_KEY_MISMATCH';
}

/** A header whose encryption context is not exactly the one the reader expected (docs/spec.md §4.5a, Streams item 5). */
export class StreamContextMismatchError extends StreamError {
  override readonly name = 'StreamContextMismatchError';
  readonly code = 'STREAM_CONTEXT_MISMATCH';
}
