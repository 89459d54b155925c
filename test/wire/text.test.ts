import test from 'ava';
import { jsonTextFault, type TextControls, textFault } from '../../src/wire/text.js';

const cases: [string, string, TextControls, RegExp | undefined][] = [
  ['plain text', 'alice', 'none', undefined],
  ['an emoji (a surrogate pair)', 'key \u{1F511}', 'none', undefined],
  ['combining marks', 'e\u0301\u0323', 'none', undefined],
  ['a lone high surrogate', 'bob\uD800', 'none', /^not well-formed Unicode \(a lone surrogate U\+D800 at index 3\)$/],
  ['a lone high surrogate before another character', '\uD83Dx', 'none', /lone surrogate U\+D83D at index 0/],
  ['a lone low surrogate', 'a\uDC00', 'none', /lone surrogate U\+DC00 at index 1/],
  ['a reversed pair', '\uDE00\uD83D', 'none', /lone surrogate U\+DE00 at index 0/],
  ['NUL', 'a\u0000', 'none', /^a control character U\+0000 at index 1 is not allowed$/],
  ['an escape', '\u001B[31m', 'none', /U\+001B at index 0/],
  ['DEL', 'x\u007F', 'none', /U\+007F at index 1/],
  ['a tab in a name', 'a\tb', 'none', /U\+0009/],
  ['line breaks and a tab in a PEM', '-----BEGIN-----\r\n\tAA==\n', 'lines', undefined],
  ['a NUL in a PEM', 'AA\n\u0000', 'lines', /U\+0000 at index 3/],
  ['a C1 control (outside the rule)', 'a\u0085', 'none', undefined],
];
for (const [what, value, controls, fault] of cases) {
  test(`text rule: ${what}`, (t) => {
    const found = textFault(value, controls);
    if (fault === undefined) t.is(found, undefined);
    else t.regex(found ?? '', fault);
  });
}

test('a JSON value is checked at every depth, member names too, and the path names the string', (t) => {
  t.is(jsonTextFault({ kty: 'EC', crv: 'P-256', list: ['a', 1, null, { b: '\u{1F600}' }] }), undefined);
  t.like(jsonTextFault({ kty: 'EC', list: ['ok', { x: 'y\u0000' }] }), { path: ['list', 1, 'x'] });
  t.like(jsonTextFault({ outer: { 'n\uD800': 1 } }), { path: ['outer'] });
  t.regex(jsonTextFault({ outer: { 'n\uD800': 1 } })?.fault ?? '', /^a member name: not well-formed Unicode/);
});
