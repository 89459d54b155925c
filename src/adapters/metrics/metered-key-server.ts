import type { KeyServer, KeyServerConnection } from '../../ports/key-server.port.js';
import type { Metrics } from '../../ports/metrics.port.js';

/** Methods that do no I/O and are not timed. */
const UNTIMED = new Set(['fingerprint', 'daemons', 'close']);

/**
 * A KeyServer whose calls, and the calls of the connections it opens, are timed for the metrics by
 * port method name and outcome (the error's code, `ok` on success). Arguments are never looked at.
 */
export function meteredKeyServer(inner: KeyServer, metrics: Metrics): KeyServer {
  return timedProxy(inner, metrics, (method, value) => (method === 'connect' ? timedProxy(value as KeyServerConnection, metrics) : value));
}

function timedProxy<T extends object>(target: T, metrics: Metrics, wrap: (method: string, value: unknown) => unknown = (_, value) => value): T {
  // Each method's wrapper is made on its first read and kept: a read allocates nothing after that.
  const wrappers = new Map<PropertyKey, { readonly of: unknown; readonly wrapper: unknown }>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      const kept = wrappers.get(property);
      if (kept !== undefined && kept.of === value) return kept.wrapper;
      const wrapper =
        typeof property !== 'string' || UNTIMED.has(property)
          ? value.bind(object)
          : timed(object, value as (...args: unknown[]) => unknown, property, metrics, wrap);
      wrappers.set(property, { of: value, wrapper });
      return wrapper;
    },
  });
}

function timed(object: object, method: (...args: unknown[]) => unknown, name: string, metrics: Metrics, wrap: (method: string, value: unknown) => unknown) {
  return async (...args: unknown[]) => {
    const started = performance.now();
    try {
      const result = await method.apply(object, args);
      metrics.keyServerCall(name, 'ok', (performance.now() - started) / 1e3);
      return wrap(name, result);
    } catch (error) {
      metrics.keyServerCall(name, codeOf(error), (performance.now() - started) / 1e3);
      throw error;
    }
  };
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : 'UNKNOWN';
}
