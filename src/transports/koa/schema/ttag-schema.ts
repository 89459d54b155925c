import { z } from 'zod';
import { readKeyReference, readTtag } from '../../../domain/key/ttag.js';

/**
 * A ttag field of a request body, read once here (docs/spec.md §1.4): the handler receives its canonical
 * standard-base64 form; a value that is no ttag is the field's issue (`ttag: not base64`, parse.ts).
 */
export function ttagField<S extends z.ZodType<string, string>>(schema: S) {
  return schema.transform(function canonicalTtag(value, ctx) {
    const read = readTtag(value);
    if ('ttag' in read) return read.ttag;
    ctx.addIssue({ code: 'custom', message: read.fault, input: value });
    return z.NEVER;
  });
}

/**
 * A key field of an /api request body (docs/spec.md §4.23 item 3): a ttag in its canonical form, or
 * `alias/<name>` as given, which the key server resolves; anything else is the field's issue.
 */
export function keyReferenceField<S extends z.ZodType<string, string>>(schema: S) {
  return schema.transform(function canonicalKeyReference(value, ctx) {
    const read = readKeyReference(value);
    if ('ttag' in read) return read.ttag;
    ctx.addIssue({ code: 'custom', message: read.fault, input: value });
    return z.NEVER;
  });
}
