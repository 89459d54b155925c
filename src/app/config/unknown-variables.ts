import { isFileVariant } from './env-files.js';
import { CONFIG_VARIABLES, HARNESS_PREFIX } from './variables.js';

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The declared variable nearest to `name` (the first declared wins a tie). */
export function nearestVariable(name: string): string {
  let best: { name: string; distance: number } | undefined;
  for (const variable of CONFIG_VARIABLES) {
    const distance = editDistance(name, variable.name);
    if (best === undefined || distance < best.distance) best = { name: variable.name, distance };
  }
  return best!.name;
}

/**
 * One warning line per `TE_*` variable of `env` that keygate does not read (a typo is otherwise
 * silently ignored), naming the nearest known one. Only names are shown, never a value.
 */
export function unknownVariableWarnings(env: Readonly<Record<string, string | undefined>>): string[] {
  const known = new Set<string>(CONFIG_VARIABLES.map((variable) => variable.name));
  return Object.keys(env)
    .filter((name) => name.startsWith('TE_') && !name.startsWith(HARNESS_PREFIX) && !known.has(name) && !isFileVariant(name))
    .sort()
    .map((name) => `${name} is not a keygate variable; did you mean ${nearestVariable(name)}?`);
}
