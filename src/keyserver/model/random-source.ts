/** Where the key server draws its random bytes (keys, salts, tokens, SRP ephemerals). */
export interface RandomSource {
  bytes(length: number): Uint8Array;
}
