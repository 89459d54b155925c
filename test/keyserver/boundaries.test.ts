import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

/**
 * The key server stands on its own (architecture: src/keyserver imports only itself, src/wire and
 * src/crypto), and those two, the only modules both sides share, import nothing of ours.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.[^']+)'/g;

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));
}

function importsLeaving(folder: string, allowed: readonly string[]): string[] {
  const leaving: string[] = [];
  for (const file of sources(folder)) {
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = relative(root, normalize(join(root, dirname(file), match[1]!)));
      if (!allowed.some((prefix) => target.startsWith(prefix))) leaving.push(`${file} -> ${match[1]!}`);
    }
  }
  return leaving;
}

test('src/keyserver imports nothing outside src/keyserver, src/wire and src/crypto', (t) => {
  t.true(sources('src/keyserver').length > 0);
  t.deepEqual(importsLeaving('src/keyserver', ['src/keyserver/', 'src/wire/', 'src/crypto/']), []);
});

test('src/wire imports nothing of ours outside itself', (t) => {
  t.true(sources('src/wire').length > 0);
  t.deepEqual(importsLeaving('src/wire', ['src/wire/']), []);
});

test('src/crypto imports nothing of ours outside itself', (t) => {
  t.true(sources('src/crypto').length > 0);
  t.deepEqual(importsLeaving('src/crypto', ['src/crypto/']), []);
});
