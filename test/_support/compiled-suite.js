#!/usr/bin/env node
// `npm test`'s ava run. The worktree's TypeScript (src/, test/, scripts/, bench/) is compiled to
// JavaScript once for the run, by esbuild, into a scratch copy of the worktree in the system's
// temporary directory, where every other file is a link to its own; ava then runs the compiled test
// files there, and Node loads them with no module hooks. Through typescript-loader.js each of a test
// process's ~900 modules is resolved and loaded by a round trip to the hooks' thread: over the suite's
// 330 files that was 614 CPU-seconds of the test processes' own against 522 this way (README.md, "Tests").
//
// Each file is compiled on its own, its imports as written, except that a package's name points at
// that package's bundle in the copy (vendor.js): a test process that starts a gateway otherwise
// loads some 820 modules of packages, one file at a time: with them bundled, the run's Node
// processes took 630 CPU-seconds against 744 (the test processes 444 against 535). The `keygate`
// processes the tests start run one bundle of the sources (and the same package bundles): a CLI
// command 0.21 s of CPU against 0.27 with the sources as separate files, `keygate serve` 0.47 s
// against 0.56 (0.85 before the packages were bundled).
//
// The copy keeps what the code finds through `import.meta.url`: a compiled test, script or bench
// file keeps the URL of its .ts file (docs, fixtures and sources are read where they are), and the
// compiled sources keep their own, laid out as the installed package has them: beside package.json
// and node_modules, the console's built files in src/console/. Stack traces name the .ts lines
// (inline source maps, which ava has Node read). `npx ava test/x.test.ts` still runs one file through
// typescript-loader.js, with no copy.
//
// Arguments go to ava; a test file named `….ts` is run as its compiled `….js`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundlePackages, NODE_ESM, SPLIT, vendorUrl } from './vendor.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The folders whose TypeScript is compiled; every other entry of the worktree is linked as it is. */
const COMPILED = ['src', 'test', 'scripts', 'bench'];
/** Not copied: the repository itself, and what the copy writes its own of. */
const LEFT_OUT = new Set(['.git', 'package.json']);
const TYPESCRIPT = /(?<!\.d)\.tsx?$/;
/** Where in the copy the CLI's bundle goes. */
const CLI_BUNDLE = 'keygate-cli';

const home = mkdtempSync(join(tmpdir(), 'keygate-suite-'));
let removed = false;
const remove = () => {
  if (removed) return;
  removed = true;
  rmSync(home, { recursive: true, force: true });
};

try {
  await copyWorktree();
} catch (error) {
  remove();
  throw error;
}
// The suite's `keygate` processes (keygate-from-source.js) run the CLI bundled from the copy's sources.
const cli = pathToFileURL(join(home, CLI_BUNDLE, 'main.js')).href;

const child = spawn(
  process.execPath,
  [join(ROOT, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), ...process.argv.slice(2).map(compiledName)],
  {
    cwd: home,
    env: { ...process.env, KEYGATE_SUITE_COPY: home, KEYGATE_SUITE_CLI: cli },
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  remove();
  process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
});

/** `test/x.test.ts` (a file ava is given) as the copy has it; any other argument as it is. */
function compiledName(argument) {
  return !argument.startsWith('-') && TYPESCRIPT.test(argument) ? argument.replace(/\.tsx?$/, '.js') : argument;
}

async function copyWorktree() {
  const { build } = await import('esbuild');
  const sources = [];
  for (const entry of readdirSync(ROOT)) {
    if (LEFT_OUT.has(entry)) continue;
    if (!COMPILED.includes(entry)) {
      symlinkSync(join(ROOT, entry), join(home, entry));
      continue;
    }
    for (const file of filesUnder(join(ROOT, entry))) {
      const path = relative(ROOT, file);
      mkdirSync(dirname(join(home, path)), { recursive: true });
      if (TYPESCRIPT.test(path)) sources.push(file);
      else symlinkSync(file, join(home, path));
    }
  }
  const packages = new Set();
  const tsconfigRaw = readFileSync(join(ROOT, 'tsconfig.json'), 'utf8');
  /** A package's name points at its bundle in the copy (vendor.js); `url` says what a file's `import.meta.url` is. */
  const packagesBundled = (url) => ({
    name: 'packages-bundled',
    setup(files) {
      files.onResolve({ filter: /^[^./]/ }, ({ kind, path }) => {
        if (kind === 'entry-point') return undefined;
        const bundled = vendorUrl(home, path);
        if (bundled === undefined) return { path, external: true };
        packages.add(path);
        return { path: bundled, external: true };
      });
      files.onLoad({ filter: /\.tsx?$/ }, ({ path }) => ({
        contents: withUrl(readFileSync(path, 'utf8'), url(path)),
        loader: path.endsWith('.tsx') ? 'tsx' : 'ts',
      }));
    },
  });
  // Every file compiled on its own, its own imports left as they are written, as a transform would.
  const eachFile = (entryPoints, keepNames) =>
    build({
      entryPoints,
      outbase: ROOT,
      outdir: home,
      ...NODE_ESM,
      keepNames,
      sourcemap: 'inline',
      sourcesContent: false,
      tsconfigRaw,
      plugins: [
        {
          name: 'own-imports-as-written',
          setup: (files) =>
            files.onResolve({ filter: /^[./]/ }, ({ kind, path }) => (kind === 'entry-point' ? undefined : { path, external: true })),
        },
        packagesBundled(ownUrl),
      ],
    });
  const inSrc = (file) => relative(ROOT, file).startsWith(`src${sep}`);
  await Promise.all([
    // A top-level class compiled this way is `var X = class _X` when it names itself inside: the
    // sources keep their names as written (an error's class, what a log shows).
    eachFile(sources.filter(inSrc), true),
    // Not the tests: a function a test hands to a browser page goes as its text, which must not call
    // a helper of the build's.
    eachFile(
      sources.filter((file) => !inSrc(file)),
      false,
    ),
    // The CLI the suite's `keygate` processes run, one bundle of the sources (its commands' heavier
    // parts in chunks loaded when used): each module keeps the URL of its compiled copy, so it
    // finds the package.json and the console's files where the installed package has them.
    build({
      entryPoints: { main: join(ROOT, 'src', 'cli', 'main.ts') },
      outdir: join(home, CLI_BUNDLE),
      ...SPLIT,
      keepNames: true,
      sourcemap: 'linked',
      sourcesContent: false,
      tsconfigRaw,
      plugins: [packagesBundled((file) => pathToFileURL(join(home, relative(ROOT, file).replace(/\.tsx?$/, '.js'))).href)],
    }),
  ]);
  await bundlePackages(home, packages);
  writePackageJson();
  await writeConsole();
}

/**
 * What a file compiled into the copy finds as its `import.meta.url`: a source, its compiled copy's
 * own (laid out as installed); a test, script or bench file, its .ts file's, so what it reads beside
 * itself is read where it is.
 */
function ownUrl(file) {
  return relative(ROOT, file).startsWith(`src${sep}`) ? undefined : pathToFileURL(file).href;
}

/** `text` with `import.meta.url` read as `url` (as it is when `url` is undefined). */
function withUrl(text, url) {
  return url === undefined ? text : text.replace(/\bimport\.meta\.url\b/g, JSON.stringify(url));
}

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() || (entry.isSymbolicLink() && statSync(join(entry.parentPath, entry.name)).isFile()))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The worktree's package.json, its ava settings pointed at the compiled test files and without the loader. */
function writePackageJson() {
  const settings = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const { extensions: _extensions, nodeArguments: _nodeArguments, files, ...ava } = settings.ava;
  settings.ava = {
    ...ava,
    files: files.map((pattern) => pattern.replace(/\.ts$/, '.js')),
    nodeArguments: [],
  };
  writeFileSync(join(home, 'package.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** The console's built files where the compiled src/app/console-assets.js reads them, as `npm run build` writes dist/console/. */
async function writeConsole() {
  const { consoleAssets } = await import(pathToFileURL(join(home, 'scripts', 'bundle-client.js')).href);
  for (const [name, asset] of Object.entries(await consoleAssets())) {
    const file = join(home, 'src', 'console', name);
    rmSync(file, { force: true });
    writeFileSync(file, asset.body);
  }
}
