import { readFileSync } from 'node:fs';

/** Prints the top self-time frames of a `.cpuprofile`: `tsx bench/profile-top.ts file [count]`. */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
const [file, count = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFrame = new Map<string, number>();
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/(node_modules|src|bench)\//, '$1/').replace(/^node:/, '');
  const name = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
  byFrame.set(name, (byFrame.get(name) ?? 0) + (self.get(node.id) ?? 0));
}
const top = [...byFrame.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(count));
for (const [name, micros] of top) process.stdout.write(`${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}\n`);
