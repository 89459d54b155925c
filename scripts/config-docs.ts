/** Writes the README's configuration table from the table of variables (src/app/config/variables.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { replaceConfigTable } from './config-docs-section.js';

const README = new URL('../README.md', import.meta.url);
const before = readFileSync(README, 'utf8');
const after = replaceConfigTable(before);
if (after !== before) writeFileSync(README, after);
process.stdout.write(after === before ? 'README.md: configuration table up to date\n' : 'README.md: configuration table rewritten\n');
