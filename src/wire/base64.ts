/**
 * @file Standard base64 (RFC 4648 §4), the form bodies carry binary values and ttags in
 * (docs/spec.md §1.4, docs/spec.md §4.5): the standard alphabet in groups of four characters, the last
 * group padded with `=`; no whitespace, no base64url character, no missing padding. Declared here,
 * once, because both sides check it: the zod edges say it with `z.base64()` (the /api schemas, the key
 * server's argument schemas), which holds the same rule (test/wire/base64.test.ts holds the two to
 * each other); the code without zod (the gateway's domain, the key server's engine) asks
 * `isStandardBase64`. No Node API: a browser may import it.
 */

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether `value` is a string of standard base64 (the empty string is: it carries no byte). */
export function isStandardBase64(value: unknown): value is string {
  return typeof value === 'string' && STANDARD_BASE64.test(value);
}
