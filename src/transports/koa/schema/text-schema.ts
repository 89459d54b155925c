import { z } from 'zod';
import { jsonTextFault, type TextControls, textFault } from '../../../wire/text.js';

/** What a text field takes beside the rule: its length limit (UTF-16 units) and the controls it allows. */
export interface TextOptions {
  readonly min?: number;
  readonly max: number;
  readonly controls?: TextControls;
  /** The message of a `min` refusal (`required` for a field that must not be empty). */
  readonly minMessage?: string;
}

/**
 * A string field of a request under the text rule (docs/spec.md §1.6, src/wire/text.ts): well-formed
 * Unicode, no control character but those `controls` allows, within its length limit. A violation is
 * the field's issue, so the surface's one BAD_REQUEST names the field (parse.ts).
 */
export function text(options: TextOptions) {
  const { min, max, controls = 'none', minMessage } = options;
  const sized = z.string().max(max);
  return (min === undefined ? sized : sized.min(min, minMessage)).superRefine(obeyTextRule(controls));
}

/** The rule as a refinement, for a string schema that has other checks (a pattern, a transform) of its own. */
export function obeyTextRule(controls: TextControls = 'none') {
  return function checkText(value: string, ctx: z.RefinementCtx): void {
    const fault = textFault(value, controls);
    if (fault !== undefined) ctx.addIssue({ code: 'custom', message: fault, input: value });
  };
}

/** A JSON value whose shape another part checks (a JWK, a policy value): every string in it, names too, under the rule. */
export function textJson<S extends z.ZodType>(schema: S) {
  return schema.superRefine(function checkJsonText(value, ctx) {
    const found = jsonTextFault(value);
    if (found !== undefined) ctx.addIssue({ code: 'custom', message: found.fault, path: found.path, input: value });
  });
}
