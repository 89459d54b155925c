import { performance } from 'node:perf_hooks';

/** The latest known state of one dependency, and when it was learnt. */
export class HealthSignal {
  #ok = true;
  #at = -Infinity;
  #version = 0;
  #reason: string | undefined;

  get ok(): boolean {
    return this.#ok;
  }

  /** Why it is down, when the failure said so in public words (a KeygateError's `reason`). */
  get reason(): string | undefined {
    return this.#ok ? undefined : this.#reason;
  }

  /** Bumped by every note: a ping that started before a real outcome arrived does not overwrite it. */
  get version(): number {
    return this.#version;
  }

  note(ok: boolean, reason?: string): void {
    this.#ok = ok;
    this.#reason = reason;
    this.#at = performance.now();
    this.#version++;
  }

  /** Milliseconds since the latest note (Infinity before the first). */
  ageMs(): number {
    return performance.now() - this.#at;
  }
}

/**
 * Wraps `target` so that each call of one of `methods` reports its outcome to `signal`: resolved, or
 * rejected with a code other than `downCode`, is up (the dependency answered); rejected with
 * `downCode` is down. With `downOnly`, only the down outcomes are reported (the up state then comes
 * from the background probe alone). Other members pass through untouched.
 */
export function observeCalls<T extends object>(
  target: T,
  methods: readonly (keyof T & string)[],
  signal: HealthSignal,
  downCode: string,
  { downOnly = false } = {},
): T {
  const observed = new Map<PropertyKey, unknown>();
  for (const name of methods) {
    const method = target[name] as unknown as (...args: unknown[]) => unknown;
    observed.set(name, (...args: unknown[]) => {
      const result = method.apply(target, args);
      if (!(result instanceof Promise)) return result;
      return result.then(
        (value) => {
          if (!downOnly) signal.note(true);
          return value;
        },
        (error: unknown) => {
          const up = (error as { code?: unknown } | undefined)?.code !== downCode;
          if (!up || !downOnly) signal.note(up, publicReason(error));
          throw error;
        },
      );
    });
  }
  // A method is bound once, on its first use, not on every property read (one allocation per call).
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, property) {
      const known = observed.get(property) ?? bound.get(property);
      if (known !== undefined) return known;
      const value = Reflect.get(object, property, object) as unknown;
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(object);
      bound.set(property, method);
      return method;
    },
  });
}

/** The public `reason` a failure carries (KeygateError), if any: never its detail or cause. */
export function publicReason(error: unknown): string | undefined {
  const reason = (error as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? reason : undefined;
}
