import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import test from 'ava';
import { importSource } from '../_support/source-files.js';

// Every error class in src sets `name` to its own class name, so that a stack trace or a log line
// says which failure it was. The files are found by reading src, so a new error class is covered.
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const DECLARES_ERROR = /^export class \w+ extends \w*Error\b/m;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const errorFiles = sourceFiles(SRC).filter((path) => DECLARES_ERROR.test(readFileSync(path, 'utf8')));

test('every exported error class in src names itself', async (t) => {
  t.true(errorFiles.length >= 10, 'the error files were found');
  const checked: string[] = [];
  for (const path of errorFiles) {
    const exports = await importSource(pathToFileURL(path));
    for (const [exported, value] of Object.entries(exports)) {
      if (typeof value !== 'function' || !(value.prototype instanceof Error)) continue;
      // Two strings fit every constructor here: (code, detail), (detail, cause), (reason, message), (id).
      const error = Reflect.construct(value, ['BAD_REQUEST', 'detail']) as Error;
      t.is(error.name, value.name, `${relative(SRC, path)}: ${exported}`);
      t.true(error.stack?.startsWith(`${value.name}:`), `${exported}'s stack trace names it`);
      checked.push(value.name);
    }
  }
  t.true(checked.includes('ProofReplayedError') && checked.includes('KeyServerError') && checked.includes('NotSavedError'));
});
