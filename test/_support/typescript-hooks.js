// The module hooks typescript-loader.js registers (they run on Node's loader thread).
//
// resolve: a relative `./x.js` written in a .ts or .tsx file names `./x.ts` (or `./x.tsx`) when that
// is the file there, as TypeScript's NodeNext resolution reads it. Every other import is Node's own.
// load: a .ts or .tsx file outside node_modules is compiled by esbuild with the worktree's tsconfig.json
// (ES modules, an inline source map) and the result is kept in the system's temporary directory under a
// hash of everything that goes into it (the file's URL and text, tsconfig.json, esbuild's version, this
// file): an edited file compiles again on its next load, an unchanged one is read back.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPESCRIPT = /\.tsx?$/;
const TSCONFIG = readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8');
const ESBUILD_VERSION = createRequire(import.meta.url)('esbuild/package.json').version;
const SETTINGS = createHash('sha256')
  .update(readFileSync(new URL(import.meta.url)))
  .update(`\0${TSCONFIG}\0${ESBUILD_VERSION}`)
  .digest();
const CACHE = join(tmpdir(), 'keygate-typescript');

/** @type {import('esbuild') | undefined} */
let esbuild;

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent !== undefined && TYPESCRIPT.test(parent) && isRelative(specifier) && specifier.endsWith('.js')) {
    const stem = new URL(specifier.slice(0, -3), parent);
    for (const extension of ['.ts', '.tsx']) {
      const url = new URL(`${stem.pathname}${extension}`, stem);
      if (existsSync(url)) return { url: url.href, format: 'module', shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TYPESCRIPT.test(url) || url.includes('/node_modules/')) return nextLoad(url, context);
  return { format: 'module', source: await compiled(url), shortCircuit: true };
}

function isRelative(specifier) {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

/** The JavaScript for one TypeScript file: read back when this text was compiled before, else compiled now. */
async function compiled(url) {
  const source = readFileSync(new URL(url), 'utf8');
  const key = createHash('sha256').update(SETTINGS).update(`\0${url}\0`).update(source).digest('hex').slice(0, 32);
  const file = join(CACHE, `${key}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // Not compiled yet.
  }
  esbuild ??= await import('esbuild');
  const path = fileURLToPath(url);
  const { code } = esbuild.transformSync(source, {
    loader: url.endsWith('.tsx') ? 'tsx' : 'ts',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: path,
    tsconfigRaw: TSCONFIG,
  });
  keep(file, code);
  return code;
}

/** Writes the compiled file whole or not at all: workers compiling the same file at once each rename their own copy into place. */
function keep(file, code) {
  try {
    mkdirSync(CACHE, { recursive: true });
    const scratch = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}`;
    writeFileSync(scratch, code);
    renameSync(scratch, file);
  } catch {
    // A read-only or full temporary directory: the file is compiled again next time.
  }
}
