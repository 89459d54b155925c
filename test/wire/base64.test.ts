import test from 'ava';
import { z } from 'zod';
import { base64 as apiBase64 } from '../../src/transports/koa/api/api-schemas.js';
import { isStandardBase64 } from '../../src/wire/base64.js';
import { filesMatching } from '../_support/source-files.js';

/** Standard base64 by RFC 4648 §4, and what it is not (docs/spec.md §1.4). */
const CASES: ReadonlyArray<readonly [string, string, boolean]> = [
  ['the empty string', '', true],
  ['four characters', 'AAAA', true],
  ['one byte, two pads', 'AQ==', true],
  ['two bytes, one pad', 'AQI=', true],
  ['both alphabet extras', 'ab+/', true],
  ['missing padding', 'AQ', false],
  ['a lone character', 'A', false],
  ['too much padding', 'AQI==', false],
  ['padding inside', 'AQ==AAAA', false],
  ['a base64url character', 'ab-_', false],
  ['a space', 'AQ== ', false],
  ['a line break inside', 'AAAA\nAAAA', false],
  ['a character outside both alphabets', 'AA!A', false],
  ['a non-ASCII letter', 'AAAé', false],
];

for (const [title, value, valid] of CASES) {
  test(`standard base64, ${title}: ${valid ? 'accepted' : 'refused'} alike by isStandardBase64, z.base64() and the /api schema`, (t) => {
    t.is(isStandardBase64(value), valid);
    t.is(z.base64().safeParse(value).success, valid);
    t.is(apiBase64.safeParse(value).success, valid);
  });
}

test('isStandardBase64 refuses what is no string', (t) => {
  for (const value of [undefined, null, 1234, ['AAAA'], { toString: () => 'AAAA' }]) t.false(isStandardBase64(value));
});

test('the /api schema names a value that is not standard base64 so, and a value too long as too long', (t) => {
  t.is(apiBase64.safeParse('AA!A').error?.issues[0]?.message, 'not standard base64');
  t.is(apiBase64.safeParse('A'.repeat(1_500_004)).error?.issues[0]?.code, 'too_big');
});

test('the strict base64 rule is written once in src (src/wire/base64.ts); the zod edges say z.base64()', (t) => {
  t.deepEqual(filesMatching('src', /\[A-Za-z0-9\+\/\]\{4\}\)\*/), ['src/wire/base64.ts']);
});
