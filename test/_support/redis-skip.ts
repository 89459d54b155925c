import test from 'ava';

/** Registers a visible skipped test and prints the reason, so a run without Redis never passes silently. */
export function skipRedisTests(what: string, reason: string): void {
  process.stderr.write(`SKIPPED ${what}: ${reason}\n`);
  test.skip(`${what}: skipped, ${reason}`, () => undefined);
}
