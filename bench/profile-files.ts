import { readFileSync } from 'node:fs';

/**
 * Inclusive time per function of our own code and per dependency in a `.cpuprofile` (a frame counts
 * once per sample however deep it recurs): `tsx bench/profile-files.ts file [count]`.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
const [file, count = '30'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const label = (node: Node) => {
  const { url, functionName } = node.callFrame;
  if (url.includes('/src/')) return `${functionName || '(anonymous)'} ${url.replace(/^.*\/src\//, 'src/')}`;
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return dep ? `[${dep[1]}]` : undefined;
};
const inclusive = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const leaf = byId.get(id)!;
  if (leaf.callFrame.functionName === '(idle)' || (leaf.callFrame.functionName === 'dispatch' && !leaf.callFrame.url)) return;
  const delta = profile.timeDeltas[i] ?? 0;
  busy += delta;
  const seen = new Set<string>();
  for (let node: Node | undefined = leaf; node; node = byId.get(parent.get(node.id) ?? -1)) {
    const name = label(node);
    if (name && !seen.has(name)) {
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
    }
  }
});
for (const [name, micros] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
  process.stdout.write(`${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${name}\n`);
}
