import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const root = new URL('../../', import.meta.url);

/** One TypeScript file of the repository: its path from the root and its text. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

/** Every .ts and .tsx file under `folder` (a path from the repository's root, `src`), at any depth. */
export function sourceFiles(folder: string): SourceFile[] {
  return readdirSync(new URL(`${folder}/`, root), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .sort()
    .map((name) => ({ path: `${folder}/${name}`, text: readFileSync(new URL(`${folder}/${name}`, root), 'utf8') }));
}

/** The files under `folder` whose text matches `pattern`. */
export function filesMatching(folder: string, pattern: RegExp): string[] {
  return sourceFiles(folder)
    .filter((file) => pattern.test(file.text))
    .map((file) => file.path);
}

/**
 * Imports a TypeScript file of the repository by its URL: the file itself where the test process
 * loads TypeScript (typescript-loader.js), its compiled copy where `npm test` runs the suite from one
 * (compiled-suite.js names the copy in KEYGATE_SUITE_COPY). Either way it is the module a static
 * import of the same file gives the test.
 */
export function importSource(url: URL): Promise<Record<string, unknown>> {
  const copy = process.env.KEYGATE_SUITE_COPY;
  if (copy === undefined || copy === '') return import(url.href);
  const path = url.href.slice(root.href.length);
  if (!url.href.startsWith(root.href) || !/\.tsx?$/.test(path)) throw new Error(`not a TypeScript file of the repository: ${url.href}`);
  return import(new URL(path.replace(/\.tsx?$/, '.js'), pathToFileURL(`${copy}/`)).href);
}
