import { readFileSync } from 'node:fs';
import test from 'ava';

test('package-lock.json lists every optional dependency, so npm ci accepts it on a fresh machine', (t) => {
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
    packages: Record<string, { optionalDependencies?: Record<string, string> }>;
  };
  const missing = Object.values(lock.packages)
    .flatMap((entry) => Object.keys(entry.optionalDependencies ?? {}))
    .filter((name) => lock.packages[`node_modules/${name}`] === undefined);
  t.deepEqual([...new Set(missing)], [], 'run `node scripts/lock-foreign-optionals.mjs` after npm install');
});
