/**
 * @file The text rule (docs/spec.md §1.6): every string a request carries, on either surface of the
 * gateway and at the key server, is well-formed Unicode and holds no control character its field does
 * not allow. Declared here, once, because it is what crosses between both: the gateway's schemas
 * (src/transports/koa/schema/text-schema.ts) and the key server's argument schemas
 * (src/wire/keyserver-values.ts) apply this one function.
 *
 * Why: a lone surrogate has no UTF-8 form, so the text a store keeps (U+FFFD in its place) is not the
 * text that was checked, MAC'd or hashed; a NUL is refused by PostgreSQL (one such row took a whole
 * group commit of audit records down with it); and no name, label or id needs a control character.
 */

/**
 * Which controls a field allows: `none` (names, labels, ids, user names, roles, tags, passwords, every
 * field not said otherwise), or `lines` (tab, line feed and carriage return: a PEM's line breaks).
 */
export type TextControls = 'none' | 'lines';

/** The controls each kind of field allows, by code point: C0 (U+0000..U+001F) and DEL (U+007F) are refused otherwise. */
const ALLOWED: Readonly<Record<TextControls, ReadonlySet<number>>> = {
  none: new Set(),
  lines: new Set([0x09, 0x0a, 0x0d]),
};

/**
 * What is wrong with `value` under the text rule, or undefined when nothing is. The answer names the
 * first offending character by its code point and its index (UTF-16 units), never quotes the text.
 * One pass over the UTF-16 units: a high surrogate must be followed by a low one, and a low one
 * preceded by a high one.
 */
export function textFault(value: string, controls: TextControls = 'none'): string | undefined {
  const allowed = ALLOWED[controls];
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit < 0x20 || unit === 0x7f) {
      if (!allowed.has(unit)) return `a control character ${codePoint(unit)} at index ${index} is not allowed`;
    } else if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return loneSurrogate(unit, index);
      index += 1;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return loneSurrogate(unit, index);
    }
  }
  return undefined;
}

/**
 * The first string in a JSON value (a member's name or a value, at any depth) that breaks the rule
 * with no control allowed: its path and the fault. For fields whose shape another part checks (a JWK,
 * a policy value), so that no text in them escapes the rule.
 */
export function jsonTextFault(
  value: unknown,
  path: readonly (string | number)[] = [],
): { path: (string | number)[]; fault: string } | undefined {
  if (typeof value === 'string') {
    const fault = textFault(value);
    return fault === undefined ? undefined : { path: [...path], fault };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = jsonTextFault(item, [...path, index]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      const nameFault = textFault(name);
      if (nameFault !== undefined) return { path: [...path], fault: `a member name: ${nameFault}` };
      const found = jsonTextFault(member, [...path, name]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function loneSurrogate(unit: number, index: number): string {
  return `not well-formed Unicode (a lone surrogate ${codePoint(unit)} at index ${index})`;
}

function codePoint(unit: number): string {
  return `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
}
