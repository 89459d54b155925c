import { readdirSync, readFileSync } from 'node:fs';

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
