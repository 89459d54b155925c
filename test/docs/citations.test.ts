import { readdirSync, readFileSync } from 'node:fs';
import test from 'ava';

const root = new URL('../../', import.meta.url);
const spec = readFileSync(new URL('docs/spec.md', root), 'utf8');

/** Every source file under the folders whose comments cite the contract. */
function sources(): { path: string; text: string }[] {
  return ['src', 'bin', 'scripts', 'bench'].flatMap((folder) =>
    (readdirSync(new URL(folder, root), { recursive: true }) as string[])
      .filter((name) => /\.(ts|js|mjs)$/.test(name))
      .map((name) => ({ path: `${folder}/${name}`, text: readFileSync(new URL(`${folder}/${name}`, root), 'utf8') })),
  );
}

/** docs/spec.md's sections (`## §7 Limits`, `### §4.3 Authorization`), each with the text below its heading. */
function specSections(): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  for (const line of spec.split('\n')) {
    const heading = /^#{2,3} §(\d+(?:\.\d+)?) /.exec(line);
    if (heading) {
      current = heading[1]!;
      sections.set(current, '');
    } else if (/^#{1,3} /.test(line)) {
      current = undefined;
    } else if (current !== undefined) {
      sections.set(current, `${sections.get(current)}${line}\n`);
    }
  }
  return sections;
}

const SECTION = String.raw`§(\d+(?:\.\d+)?)((?:\s+(?:items?|steps?)\s+\d+(?:\s*(?:-|and|to)\s*\d+)?)?)`;
/** A citation of the contract: `docs/spec.md §4.3 item 1`, then any further sections it lists (`, §5.1`, `-§4.16`). */
const CITATION = new RegExp(String.raw`(?:docs/spec\.md|\bspec) ${SECTION}(?:(?:,\s*|\s*-\s*|\s+and\s+)${SECTION})*`, 'g');

interface Citation {
  path: string;
  section: string;
  /** The numbered items or steps it names (`item 2`, `items 1-3`), if any. */
  items: number[];
}

function citations(): Citation[] {
  const found: Citation[] = [];
  for (const { path, text } of sources()) {
    for (const match of text.matchAll(CITATION)) {
      for (const part of match[0].matchAll(new RegExp(SECTION, 'g'))) {
        const numbers = [...part[2]!.matchAll(/\d+/g)].map(([n]) => Number(n));
        const items = numbers.length === 2 && /-|to/.test(part[2]!) ? range(numbers[0]!, numbers[1]!) : numbers;
        found.push({ path, section: part[1]!, items });
      }
    }
  }
  return found;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

test('no source file cites a document outside the repository or an issue number', (t) => {
  const offending = sources().flatMap(({ path, text }) =>
    text
      .split('\n')
      .map((line, index) => ({ line, index }))
      .filter(({ line }) => /api-surface\.md|\bseed 00[01]\b|\bissue \d+/i.test(line))
      .map(({ line, index }) => `${path}:${index + 1}: ${line.trim()}`),
  );
  t.deepEqual(offending, []);
});

test('docs/spec.md is never named without the section it cites', (t) => {
  const bare = sources().flatMap(({ path, text }) => [...text.matchAll(/docs\/spec\.md(?! §\d)/g)].map(() => path));
  t.deepEqual(bare, []);
});

test('every docs/spec.md section cited under src names a heading of docs/spec.md', (t) => {
  const sections = specSections();
  t.true(sections.has('4.3') && sections.has('7'), 'the spec headings parse');
  const found = citations();
  t.true(
    found.some((citation) => citation.path.startsWith('src/')),
    'src cites the spec',
  );
  t.deepEqual(
    found.filter((citation) => !sections.has(citation.section)).map((citation) => `${citation.path}: §${citation.section}`),
    [],
  );
});

test('every item or step cited is a numbered entry of its section', (t) => {
  const sections = specSections();
  const missing = citations().flatMap((citation) =>
    citation.items
      .filter((item) => !new RegExp(String.raw`^${item}\. `, 'm').test(sections.get(citation.section) ?? ''))
      .map((item) => `${citation.path}: §${citation.section} item ${item}`),
  );
  t.deepEqual(missing, []);
});
