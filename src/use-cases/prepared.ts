/**
 * The second half of an operation split in two, so that its first half can overlap work the caller
 * must finish before anything protected is read (the pending audit record of a release:
 * docs/spec.md §9.2). The first half (a use case's `prepare…` method) checks the arguments and opens
 * what it needs, and reads and releases nothing protected. The caller then calls exactly one of:
 * `release`, which reads and answers the protected result, or `abandon`, which frees what the first
 * half holds when the operation is not to be performed.
 */
export interface Prepared<R> {
  release(): Promise<R>;
  abandon(): void;
}
