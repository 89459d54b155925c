const REDACTED = '[redacted]';

/** Setting names that hold secrets: passwords, secrets, private keys, passphrases, credentials. */
const SECRET_NAME = /password|secret|private|passphrase|credential|keypem/i;

/**
 * A copy of a configuration object with every secret value replaced by `[redacted]` (docs/spec.md §4.13),
 * at any depth. A secret that is not set stays absent, so its absence is visible.
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    out[name] = SECRET_NAME.test(name) ? REDACTED : redactSecrets(item);
  }
  return out;
}
