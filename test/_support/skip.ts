import test, { type ImplementationFn } from 'ava';

/** Declares a test as ava's `test` (or `test.serial`) does, or as ava's `test.skip` where it cannot run. */
export interface Declare {
  <Args extends unknown[]>(title: string, implementation: ImplementationFn<Args>, ...args: Args): void;
  readonly serial: <Args extends unknown[]>(title: string, implementation: ImplementationFn<Args>, ...args: Args) => void;
}

const printed = new Set<string>();

/**
 * The one way a test that needs PostgreSQL, Redis, Chromium, a tool or a tmpfs mount is skipped where
 * that is missing: with `reason` undefined the tests are declared with ava's `test`; with a reason,
 * with ava's `test.skip`, the reason at the end of each title (`… (skipped: reason)`) and printed once
 * on stderr. A skipped test shows as skipped in ava's summary, never as a pass.
 */
export function testUnless(reason: string | undefined): Declare {
  if (reason === undefined) {
    const declare = <Args extends unknown[]>(title: string, implementation: ImplementationFn<Args>, ...args: Args) =>
      test(title, implementation, ...args);
    const serial = <Args extends unknown[]>(title: string, implementation: ImplementationFn<Args>, ...args: Args) =>
      test.serial(title, implementation, ...args);
    return Object.assign(declare, { serial });
  }
  if (!printed.has(reason)) {
    printed.add(reason);
    process.stderr.write(`SKIPPED: ${reason}\n`);
  }
  const skip = <Args extends unknown[]>(title: string, implementation: ImplementationFn<Args>, ...args: Args) =>
    test.skip(`${title} (skipped: ${reason})`, implementation, ...args);
  return Object.assign(skip, { serial: skip });
}

/** For a file whose tests cannot even be declared without the service: one skipped test, `what`, saying why. */
export function skipAll(what: string, reason: string): void {
  testUnless(reason)(what, () => undefined);
}
