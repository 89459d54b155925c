import { z } from 'zod';
import type { GrantConditions } from './acl.js';
import {
  CONTEXT_MEMBERS_MAX,
  CONTEXT_NAME,
  CONTEXT_VALUE_MAX,
  contextFault,
  contextNameFault,
  type EncryptionContext,
} from './encryption-context.js';

/**
 * What is wrong with a grant's conditions (docs/spec.md §4.5b item 4), with the path at fault, or
 * undefined: `{ context }` and nothing else, the context under the rules of item 1 with 1..16 members.
 * The gateway's schema, the key server's and the engine's own check all apply this one rule.
 */
export function grantConditionsFault(value: unknown): { readonly path: readonly string[]; readonly fault: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { path: [], fault: 'an object { context }' };
  const unknown = Object.keys(value).find((name) => name !== 'context');
  if (unknown !== undefined) return { path: [], fault: `unknown field ${unknown}` };
  if (!Object.hasOwn(value, 'context')) return { path: ['context'], fault: 'required' };
  const context = (value as { context: unknown }).context;
  const found = contextFault(context);
  // A name outside the set is not repeated in the path (docs/spec.md §4.5b item 1): it may hold any text.
  if (found !== undefined) {
    const named = found.member !== '' && contextNameFault(found.member) === undefined;
    return { path: named ? ['context', found.member] : ['context'], fault: found.fault };
  }
  if (Object.keys(context as object).length === 0) return { path: ['context'], fault: `1..${CONTEXT_MEMBERS_MAX} members` };
  return undefined;
}

/**
 * Conditions as the gateway and the key server take them: checked by grantConditionsFault, the members
 * copied as own properties (a name such as `__proto__` stays a member, never a prototype).
 */
export const grantConditions = z
  .unknown()
  .transform(function checkConditions(value, ctx): GrantConditions {
    const found = grantConditionsFault(value);
    if (found !== undefined) {
      ctx.addIssue({ code: 'custom', message: found.fault, path: [...found.path], input: value });
      return z.NEVER;
    }
    return { context: ownMembers((value as GrantConditions).context) };
  })
  .meta({
    type: 'object',
    required: ['context'],
    additionalProperties: false,
    properties: {
      context: {
        type: 'object',
        minProperties: 1,
        maxProperties: CONTEXT_MEMBERS_MAX,
        propertyNames: { pattern: CONTEXT_NAME.source },
        additionalProperties: { type: 'string', maxLength: CONTEXT_VALUE_MAX },
      },
    },
  });

/** A condition's context alone (1..16 members), as `access` answers it in `conditional`. */
export const conditionContext = z.unknown().transform(function checkConditionContext(value, ctx): EncryptionContext {
  const found = grantConditionsFault({ context: value });
  if (found !== undefined) {
    ctx.addIssue({ code: 'custom', message: found.fault, path: found.path.slice(1), input: value });
    return z.NEVER;
  }
  return ownMembers(value as EncryptionContext);
});

/** A context's members as a fresh object of own data properties. */
export function ownMembers(context: EncryptionContext): EncryptionContext {
  return Object.fromEntries(Object.entries(context));
}
