import type { z } from 'zod';
import { BadRequestError } from '../../../domain/errors/index.js';

type Issue = z.core.$ZodIssue;

/** Validates a value against a request schema; one `BAD_REQUEST` whose detail names the field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = telling(result.error.issues[0]);
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
  const message = issue?.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : (issue?.message ?? 'invalid');
  throw new BadRequestError(`${field}: ${message}`);
}

/**
 * A body that fits no option of a union of strict objects (a single request or `{ items }`) is
 * named by the first option whose fields it uses (one that found no unknown field at its top): that
 * option's first issue names the field. When every option found unknown fields, the union's issue stands.
 */
function telling(issue: Issue | undefined): Issue | undefined {
  if (issue?.code !== 'invalid_union') return issue;
  const fitting = issue.errors.filter((issues) => !issues.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0));
  const chosen = fitting[0]?.[0];
  return chosen === undefined ? issue : telling({ ...chosen, path: [...issue.path, ...chosen.path] } as Issue);
}
