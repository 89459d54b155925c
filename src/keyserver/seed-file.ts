import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from './config-error.js';

/** A seed file of principals to create (`--seed`, TE_KEYSERVER_SEED): `{"principals":[...]}`. */
export const principalSeedSchema = z.strictObject({
  principals: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        kind: z.enum(['user', 'group', 'service']),
        password: z.string().min(1).optional(),
        roles: z.array(z.string().min(1)).optional(),
        displayName: z.string().optional(),
      }),
    )
    .max(10_000),
});
export type PrincipalSeed = z.infer<typeof principalSeedSchema>;

function readText(path: string, setting: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Reads a JSON seed file of principals; `setting` (a variable or a flag) names it in the error. */
export function readSeedFile(path: string, setting: string): PrincipalSeed {
  const text = readText(path, setting);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`${setting}: ${path} is not valid JSON`);
  }
  const result = principalSeedSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`${setting}: ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return result.data;
}
