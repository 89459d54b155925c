import type { KeyServer, KeyServerConnection } from '../../ports/key-server.port.js';
import type { Metrics } from '../../ports/metrics.port.js';

/** Methods that do no I/O and are not timed. */
const UNTIMED = new Set(['fingerprint', 'close']);

/**
 * A KeyServer whose calls, and the calls of the connections it opens, are timed for the metrics by
 * port method name and outcome (the error's code, `ok` on success). Arguments are never looked at.
 */
export function meteredKeyServer(inner: KeyServer, metrics: Metrics): KeyServer {
  return timedProxy(inner, metrics, (method, value) => (method === 'connect' ? timedProxy(value as KeyServerConnection, metrics) : value));
}

function timedProxy<T extends object>(target: T, metrics: Metrics, wrap: (method: string, value: unknown) => unknown = (_, value) => value): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string' || UNTIMED.has(property)) return value.bind(object);
      return async (...args: unknown[]) => {
        const started = process.hrtime.bigint();
        const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
        try {
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(object, args);
          metrics.keyServerCall(property, 'ok', seconds());
          return wrap(property, result);
        } catch (error) {
          metrics.keyServerCall(property, codeOf(error), seconds());
          throw error;
        }
      };
    },
  });
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : 'UNKNOWN';
}
