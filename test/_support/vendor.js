// The packages the test suite's code imports, bundled into a few files of the suite's copy
// (compiled-suite.js). A test process that starts a gateway loads about 820 modules of packages (the
// container alone about 240, the certificate library about 180), and Node resolves, reads and
// compiles each; bundled, the same code is a few files. Each package keeps the exports Node gives
// it (its own ESM exports, or what Node finds in its CommonJS), and one copy of each module serves
// every package that shares it, as in node_modules.
import { mkdirSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Left to Node, as they are: ava (its workers' own instance), packages that find files or binaries
 * beside themselves (the SQLite addon, esbuild, TypeScript, tsx, Playwright, the load generator's
 * workers) and the tools.
 */
const LOADED_BY_NODE = new Set([
  'ava',
  'better-sqlite3',
  'esbuild',
  'typescript',
  'tsx',
  'playwright-core',
  'openapi-typescript',
  'dependency-cruiser',
  'autocannon',
  'pg-native',
]);

/** What every esbuild run of the suite's copy makes: ES modules for this Node, each import resolved by esbuild (a bundle). */
export const NODE_ESM = { bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'error' };

/** A bundle whose entries share their common code through chunks, each module once. */
export const SPLIT = { ...NODE_ESM, splitting: true, chunkNames: 'chunks/[name]-[hash]' };

/** The package name of a bare specifier (`@scope/name/sub` -> `@scope/name`), or undefined for a path or a builtin. */
function packageOf(specifier) {
  if (/^[./]|^[a-z]+:/i.test(specifier) || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function fileOf(specifier) {
  return `${specifier.replace(/[^A-Za-z0-9._-]/g, '_')}.js`;
}

/** The URL of `specifier`'s bundle in the copy at `home`, or undefined when Node loads it itself. */
export function vendorUrl(home, specifier) {
  const name = packageOf(specifier);
  if (name === undefined || LOADED_BY_NODE.has(name)) return undefined;
  return pathToFileURL(join(home, 'vendor', fileOf(specifier))).href;
}

/**
 * Bundles each of `specifiers` into `<home>/vendor/`, one entry each with the exports Node gives the
 * package (read by importing it here), shared code in common chunks so that a module is one
 * instance in a process. CommonJS code in them gets a `require` of its own for Node's builtins.
 */
export async function bundlePackages(home, specifiers) {
  const { build } = await import('esbuild');
  const entries = join(home, 'vendor-entries');
  mkdirSync(entries, { recursive: true });
  await import('reflect-metadata');
  const points = {};
  for (const specifier of [...specifiers].sort()) {
    const names = Object.keys(await import(specifier));
    const file = join(entries, fileOf(specifier).replace(/\.js$/, '.mjs'));
    const exported = names.map((name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)));
    writeFileSync(
      file,
      exported.length > 0
        ? `export { ${exported.join(', ')} } from ${JSON.stringify(specifier)};\n`
        : `import ${JSON.stringify(specifier)};\n`,
    );
    points[fileOf(specifier).replace(/\.js$/, '')] = file;
  }
  await build({
    entryPoints: points,
    outdir: join(home, 'vendor'),
    ...SPLIT,
    keepNames: true,
    external: [...LOADED_BY_NODE].flatMap((name) => [name, `${name}/*`]),
    banner: { js: "import { createRequire as __vendorRequire } from 'node:module'; const require = __vendorRequire(import.meta.url);" },
  });
}
