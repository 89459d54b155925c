/**
 * The /api bodies carry binary values as standard base64 (docs/spec.md §4.5, checked by the schemas);
 * the key server takes and gives bytes. A route decodes a request's binary members here, encodes an
 * answer's, and owns both sets of arrays: it zeroes them once the answer is encoded (`wipeBinary`).
 */
const BINARY = ['plaintext', 'aad', 'ciphertext', 'iv', 'authTag', 'data', 'mac'] as const;
type BinaryField = (typeof BINARY)[number];

type Bytes<V> = V extends string ? Uint8Array : V;
type Decoded<T> = { [K in keyof T]: K extends BinaryField ? Bytes<T[K]> : T[K] };
type Encoded<T> = { [K in keyof T]: T[K] extends Uint8Array ? string : T[K] };

export function bytes(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}

export function base64Of(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

/** The request with each binary member (plaintext, aad, ciphertext, iv, authTag, data, mac) as bytes. */
export function decodeBinary<T extends object>(request: T): Decoded<T> {
  const decoded: Record<string, unknown> = { ...(request as Record<string, unknown>) };
  for (const field of BINARY) {
    const value = decoded[field];
    if (typeof value === 'string') decoded[field] = bytes(value);
  }
  return decoded as Decoded<T>;
}

/** The answer with each byte array member as base64, for the JSON body. */
export function encodeBinary<T extends object>(answer: T): Encoded<T> {
  return Object.fromEntries(
    Object.entries(answer).map(([key, value]) => [key, value instanceof Uint8Array ? base64Of(value) : value]),
  ) as Encoded<T>;
}

/** Zeroes the byte array members of each value. */
export function wipeBinary(...values: readonly (object | undefined)[]): void {
  for (const value of values) {
    if (value === undefined) continue;
    for (const member of Object.values(value)) if (member instanceof Uint8Array) member.fill(0);
  }
}
