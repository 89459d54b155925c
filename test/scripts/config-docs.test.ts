import { readFileSync } from 'node:fs';
import test from 'ava';
import { replaceConfigTable, TABLE_END, TABLE_START } from '../../scripts/config-docs-section.js';
import { CONFIG_VARIABLES } from '../../src/app/config/variables.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test('the README configuration table is the one rendered from the table of variables (npm run docs:config)', (t) => {
  t.is(replaceConfigTable(readme), readme, 'README.md differs from src/app/config/variables.ts: run npm run docs:config');
  const section = readme.slice(readme.indexOf(TABLE_START), readme.indexOf(TABLE_END));
  // Cells are padded to their column's width (as Biome formats Markdown tables).
  for (const variable of CONFIG_VARIABLES) t.regex(section, new RegExp(`^\\| \`${variable.name}\` +\\|`, 'm'), variable.name);
});

test('a README whose table has drifted is rewritten', (t) => {
  const drifted = readme.replace(/(\| `TE_GATEWAY_PORT` +\| )`8080`/, '$1`80`  ');
  t.not(drifted, readme);
  t.is(replaceConfigTable(drifted), readme);
});
