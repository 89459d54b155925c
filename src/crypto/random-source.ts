/**
 * Where random bytes come from, for both parts: the gateway's domain receives it from the `Random` port
 * (`src/ports/random.port.ts`), the key server from its engine context; neither reads the world directly.
 */
export interface RandomSource {
  /** `length` cryptographically strong random bytes. */
  bytes(length: number): Uint8Array;
}
