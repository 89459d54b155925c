import { textFault } from './text.js';

/**
 * @file The encryption context (docs/spec.md §4.5b): a small map of names to strings bound to a
 * ciphertext or a data key, written to the audit, and required by a grant's conditions. Declared here,
 * once, because the gateway's schemas, the key server and keygate/client all apply these rules and
 * write the one canonical form. Browser-safe: Uint8Array and TextEncoder only.
 */

/** A context as a request carries it: member name to value. */
export type EncryptionContext = Readonly<Record<string, string>>;

/** docs/spec.md §4.5b item 1. */
export const CONTEXT_MEMBERS_MAX = 16;
export const CONTEXT_NAME = /^[A-Za-z0-9_./=+\-@:]{1,128}$/;
export const CONTEXT_VALUE_MAX = 256;
/** The canonical form's fixed prefix (docs/spec.md §4.5b item 2). */
export const CONTEXT_PREFIX = 'keygate context v1';

const encoder = new TextEncoder();
const PREFIX_BYTES = encoder.encode(CONTEXT_PREFIX);

/** What is wrong with a member's name, or undefined. */
export function contextNameFault(name: string): string | undefined {
  return CONTEXT_NAME.test(name) ? undefined : '1..128 ASCII letters, digits and _ . / = + - @ :';
}

/** What is wrong with a member's value, or undefined. */
export function contextValueFault(value: string): string | undefined {
  if (value.length > CONTEXT_VALUE_MAX) return `at most ${CONTEXT_VALUE_MAX} characters`;
  return textFault(value);
}

/**
 * What is wrong with a whole context, with the path of the member at fault (`''` for the object
 * itself, else the member's name), or undefined. `value` is what JSON gave: anything.
 */
export function contextFault(value: unknown): { readonly member: string; readonly fault: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { member: '', fault: 'an object of names to strings' };
  const names = Object.keys(value);
  if (names.length > CONTEXT_MEMBERS_MAX) return { member: '', fault: `at most ${CONTEXT_MEMBERS_MAX} members` };
  for (const name of names) {
    const nameFault = contextNameFault(name);
    if (nameFault !== undefined) return { member: name, fault: `the name: ${nameFault}` };
    const member = (value as Record<string, unknown>)[name];
    if (typeof member !== 'string') return { member: name, fault: 'a string' };
    const valueFault = contextValueFault(member);
    if (valueFault !== undefined) return { member: name, fault: valueFault };
  }
  return undefined;
}

/** The context's members in canonical order: ascending byte order of the names (ASCII, so code units). */
export function contextPairs(context: EncryptionContext | undefined): [string, string][] {
  if (context === undefined) return [];
  return Object.keys(context)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => [name, context[name] as string]);
}

/** True when the context has no member: absent and `{}` are the same (docs/spec.md §4.5b item 1). */
export function isEmptyContext(context: EncryptionContext | undefined): boolean {
  return context === undefined || Object.keys(context).length === 0;
}

/**
 * The canonical form (docs/spec.md §4.5b item 2): empty for no context; else the prefix, the member
 * count, and each member as name length (1 byte), name, value length (2 bytes, big-endian), value
 * (UTF-8). The caller has checked the context (contextFault).
 */
export function canonicalContext(context: EncryptionContext | undefined): Uint8Array {
  const pairs = contextPairs(context);
  if (pairs.length === 0) return new Uint8Array(0);
  const encoded = pairs.map(([name, value]) => [encoder.encode(name), encoder.encode(value)] as const);
  const length = encoded.reduce((sum, [name, value]) => sum + 3 + name.length + value.length, PREFIX_BYTES.length + 1);
  const bytes = new Uint8Array(length);
  bytes.set(PREFIX_BYTES, 0);
  let at = PREFIX_BYTES.length;
  bytes[at++] = pairs.length;
  for (const [name, value] of encoded) {
    bytes[at++] = name.length;
    bytes.set(name, at);
    at += name.length;
    bytes[at++] = value.length >> 8;
    bytes[at++] = value.length & 0xff;
    bytes.set(value, at);
    at += value.length;
  }
  return bytes;
}

/**
 * The context a canonical form holds, or a fault: the prefix, the count and lengths, names in strictly
 * ascending order, each name and value within item 1, and nothing left over. Empty bytes are no context.
 */
export function readCanonicalContext(bytes: Uint8Array): { readonly context: EncryptionContext } | { readonly fault: string } {
  if (bytes.length === 0) return { context: {} };
  if (bytes.length < PREFIX_BYTES.length + 1 || PREFIX_BYTES.some((byte, index) => bytes[index] !== byte)) {
    return { fault: `the context does not start with ${CONTEXT_PREFIX}` };
  }
  const count = bytes[PREFIX_BYTES.length] as number;
  if (count === 0 || count > CONTEXT_MEMBERS_MAX) return { fault: `the context holds ${count} members: 1..${CONTEXT_MEMBERS_MAX}` };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const context: Record<string, string> = {};
  let at = PREFIX_BYTES.length + 1;
  let previous: string | undefined;
  for (let index = 0; index < count; index += 1) {
    const nameLength = bytes[at];
    if (nameLength === undefined || at + 1 + nameLength + 2 > bytes.length) return { fault: 'the context is cut short' };
    let name: string;
    try {
      name = decoder.decode(bytes.subarray(at + 1, at + 1 + nameLength));
    } catch {
      return { fault: 'a context name is not UTF-8' };
    }
    at += 1 + nameLength;
    const valueLength = ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
    at += 2;
    if (at + valueLength > bytes.length) return { fault: 'the context is cut short' };
    let value: string;
    try {
      value = decoder.decode(bytes.subarray(at, at + valueLength));
    } catch {
      return { fault: 'a context value is not UTF-8' };
    }
    at += valueLength;
    const fault = contextNameFault(name) ?? contextValueFault(value);
    if (fault !== undefined) return { fault: `context member ${index}: ${fault}` };
    if (previous !== undefined && !(previous < name)) return { fault: 'the context names are not in ascending order' };
    previous = name;
    // An own member even for the name `__proto__`, which an assignment would take for the prototype.
    Object.defineProperty(context, name, { value, enumerable: true, writable: true, configurable: true });
  }
  if (at !== bytes.length) return { fault: 'the context has bytes after its last member' };
  return { context };
}

/**
 * The names of `condition` the request's context does not hold with the same value (docs/spec.md §4.5b
 * item 4): empty when the condition is met. Names only, never values.
 */
export function unmetConditionNames(condition: EncryptionContext, context: EncryptionContext | undefined): string[] {
  return contextPairs(condition)
    .filter(([name, value]) => context === undefined || !Object.hasOwn(context, name) || context[name] !== value)
    .map(([name]) => name);
}
