import type { z } from 'zod';
import { BadRequestError } from '../../domain/errors/index.js';

/** Validates a value against a request schema; one `BAD_REQUEST` whose detail names the field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
  const message = issue?.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : (issue?.message ?? 'invalid');
  throw new BadRequestError(`${field}: ${message}`);
}
