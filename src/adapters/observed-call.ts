import { performance } from 'node:perf_hooks';

/** How a call ended, as an observing decorator tells its observers (beside what names the call). */
export interface CallEnd {
  readonly failed: boolean;
  readonly error: unknown;
  readonly seconds: number;
}

/**
 * Runs one call, tells every observer how it ended (`about` names the call), in order, and hands its
 * outcome on unchanged: the one mechanism of the observing decorators (ObservedKeyServer, ObservedAuditLog).
 */
export async function observedCall<T, A extends object>(
  observers: readonly ((ended: A & CallEnd) => void)[],
  about: A,
  call: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    const result = await call();
    tell(observers, { ...about, failed: false, error: undefined, seconds: (performance.now() - started) / 1e3 });
    return result;
  } catch (error) {
    tell(observers, { ...about, failed: true, error, seconds: (performance.now() - started) / 1e3 });
    throw error;
  }
}

function tell<E>(observers: readonly ((ended: E) => void)[], ended: E): void {
  for (const observer of observers) observer(ended);
}
