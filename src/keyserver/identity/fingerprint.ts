/**
 * Accepts `AB:CD:...` or `abcd...` and returns the canonical lower-case hex form, or undefined.
 * A module of its own, free of @peculiar/x509: the configuration and the daemon's options read pinned
 * fingerprints, and a `keygate` process that only parses them (`--help`, the operator commands) need
 * not load the certificate library identity-certificate.ts builds on.
 */
export function normaliseFingerprint(value: string): string | undefined {
  const hex = value.replace(/:/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : undefined;
}
