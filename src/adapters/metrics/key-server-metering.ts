import type { KeyServerCallEnded, KeyServerObserver } from '../../ports/key-server.port.js';
import type { Metrics } from '../../ports/metrics.port.js';

/**
 * The metrics' observer of the key server (plugged into src/adapters/key-server/observed-key-server.ts):
 * each call timed under its method label and its outcome (`ok`, or the error's code). The label is
 * the KeyServer member or the operation's name, but for `revokeToken`, which keeps the label it had
 * as the port's `signOut` (docs/operations.md "Metrics").
 */
export function meterKeyServerCalls(metrics: Metrics): KeyServerObserver {
  return function meterKeyServerCall(ended: KeyServerCallEnded): void {
    metrics.keyServerCall(METHOD_LABELS[ended.member] ?? ended.member, ended.failed ? codeOf(ended.error) : 'ok', ended.seconds);
  };
}

const METHOD_LABELS: Readonly<Record<string, string>> = { revokeToken: 'signOut' };

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : 'UNKNOWN';
}
