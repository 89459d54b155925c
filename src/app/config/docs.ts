import { CONFIG_VARIABLES, type ConfigVariable, VARIABLE_GROUPS, type VariableGroup } from './variables.js';

const VARIABLES: readonly ConfigVariable[] = CONFIG_VARIABLES;

function byGroup(): [VariableGroup, ConfigVariable[]][] {
  return (Object.keys(VARIABLE_GROUPS) as VariableGroup[]).map((group) => [
    group,
    VARIABLES.filter((variable) => variable.group === group),
  ]);
}

/** What a reader sees as the default: the value (in backticks for Markdown), or what unset means. */
function shownDefault(variable: ConfigVariable, quote = ''): string {
  if (variable.secret || variable.default === undefined) return variable.whenUnset ?? 'none';
  return `${quote}${variable.default}${quote}`;
}

/** Wraps `text` to `width` columns, every line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join(`\n${indent}`);
}

/** The variables section of `keygate --help`, from the table: grouped, each with its default. */
export function helpVariables(headingIndent = '  '): string {
  const indent = `${headingIndent}  `;
  const column = Math.max(...VARIABLES.map((variable) => variable.name.length)) + 2;
  const pad = indent + ' '.repeat(column);
  const sections = byGroup().map(([group, variables]) => {
    const rows = variables.map((variable) => {
      const secret = variable.secret ? '; secret: never shown' : '';
      const meaning = `${variable.meaning.replace(/`/g, '')} (default ${shownDefault(variable)}${secret})`;
      return `${indent}${variable.name.padEnd(column)}${wrap(meaning, 100 - pad.length, pad)}`;
    });
    return [`${headingIndent}${VARIABLE_GROUPS[group]}:`, ...rows].join('\n');
  });
  return `${sections.join('\n')}\n${headingIndent}${FILE_NOTE.replace(/`/g, '')}\n`;
}

/** Every variable has a file variant (env-files.ts); the README says it under the table. */
export const FILE_NOTE =
  'Any variable may be given as `<NAME>_FILE` instead: the path of a file holding its value (e.g. `TE_KEYSERVER_ADMIN_PASSWORD_FILE`).';

/** The README's configuration table, from the table (`npm run docs:config` writes it). */
export function markdownVariables(): string {
  const rows = byGroup().flatMap(([, variables]) =>
    variables.map((variable) => {
      const meaning = variable.meaning.replace(/\|/g, '\\|');
      return `| \`${variable.name}\` | ${shownDefault(variable, '`')} | ${variable.secret ? 'yes' : 'no'} | ${meaning} |`;
    }),
  );
  return ['| variable | default | secret | meaning |', '|---|---|---|---|', ...rows].join('\n');
}
