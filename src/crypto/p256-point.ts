/** NIST P-256 (SEC 2 §2.4.2, FIPS 186-4 D.1.2.3): y² = x³ - 3x + b over GF(p). */
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

function toBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? -1n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
}

/**
 * True when (x, y), 32-byte big-endian coordinates, is a point of P-256 other than the point at
 * infinity (docs/spec.md §12 item 5: a sender or proof key off the curve is refused before any signature work).
 */
export function isOnP256(x: Uint8Array, y: Uint8Array): boolean {
  if (x.length !== 32 || y.length !== 32) return false;
  const X = toBigInt(x);
  const Y = toBigInt(y);
  if (X < 0n || X >= P || Y < 0n || Y >= P) return false;
  const right = (((X * X * X - 3n * X + B) % P) + P) % P;
  return (Y * Y) % P === right;
}
