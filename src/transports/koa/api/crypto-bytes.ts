import { base64 } from './api-schemas.js';

/**
 * The /api bodies carry binary values as standard base64 (docs/spec.md §4.5); the key server takes and
 * gives bytes. A request's binary field is declared as `binary`, so the schema checks and decodes it
 * once, at the edge; a route encodes an answer's byte arrays here, and owns both sets of arrays: it
 * zeroes them once the answer is encoded (`wipeBinary`).
 */
export const binary = base64.transform(function decodeBase64(value): Uint8Array {
  return Buffer.from(value, 'base64');
});

export function base64Of(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

type Encoded<T> = { [K in keyof T]: T[K] extends Uint8Array ? string : T[K] };

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
