import { textFault } from './text.js';

/**
 * A key's tags (docs/spec.md §4.23 item 2): at most KEY_TAGS_MAX a key, each a name of 1..128 ASCII
 * letters, digits and `_ . / = + - @` (no space, no `:`, case-sensitive) and a value of 0..256
 * characters obeying the text rule (§1.6). Both sides apply these: the gateway's schemas and the key server.
 */
export const KEY_TAGS_MAX = 50;
export const TAG_NAME = /^[A-Za-z0-9_./=+\-@]{1,128}$/;
export const TAG_VALUE_MAX = 256;

/** What is wrong with a tag's name, or undefined. */
export function tagNameFault(name: string): string | undefined {
  return TAG_NAME.test(name) ? undefined : '1..128 ASCII letters, digits and _ . / = + - @';
}

/** What is wrong with a tag's value, or undefined. */
export function tagValueFault(value: string): string | undefined {
  if (value.length > TAG_VALUE_MAX) return `at most ${TAG_VALUE_MAX} characters`;
  return textFault(value);
}

/** A key's tags as the key view carries them: name to value. */
export type KeyTags = Readonly<Record<string, string>>;
