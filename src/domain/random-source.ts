/** Randomness as the domain receives it: from the `Random` port, never read from the world directly. */
export interface RandomSource {
  /** `length` cryptographically strong random bytes. */
  bytes(length: number): Uint8Array;
}
