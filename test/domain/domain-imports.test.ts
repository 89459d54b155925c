import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';

// The project's own dependency-cruiser rules, run on a small fixture tree laid out like src/: the
// domain may import itself, src/wire and node built-ins, and no package at all.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const config = createRequire(ROOT)('./.dependency-cruiser.cjs') as { forbidden: IForbiddenRuleType[] };

test('dependency-cruiser refuses a package imported by src/domain, and lets node built-ins through', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'keygate-domain-imports-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  await mkdir(join(base, 'src/domain'), { recursive: true });
  await mkdir(join(base, 'src/wire'), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(base, 'node_modules'), 'dir');
  await writeFile(join(base, 'src/wire/view.ts'), 'export const view = 1;\n');
  await writeFile(join(base, 'src/domain/rule.ts'), 'export const rule = 1;\n');
  await writeFile(
    join(base, 'src/domain/pure.ts'),
    "import { createHash } from 'node:crypto';\nimport { rule } from './rule.js';\nimport { view } from '../wire/view.js';\nexport const pure = [createHash, rule, view];\n",
  );
  await writeFile(
    join(base, 'src/domain/impure.ts'),
    "import { z } from 'zod';\nimport Koa from 'koa';\nexport const impure = [z, Koa];\n",
  );

  const result = await cruise(['src'], {
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    baseDir: base,
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  });
  const output = result.output as Exclude<typeof result.output, string>;
  const refused = output.summary.violations.map(
    (violation) => `${violation.from} -> ${violation.unresolvedTo ?? violation.to}: ${violation.rule.name}`,
  );
  t.deepEqual(refused.sort(), [
    'src/domain/impure.ts -> koa: domain-uses-no-package',
    'src/domain/impure.ts -> zod: domain-uses-no-package',
  ]);
});
