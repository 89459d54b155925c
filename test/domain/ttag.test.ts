import test from 'ava';
import { parseTtag } from '../../src/domain/key/ttag.js';

const BYTES = Buffer.from('fb0ff1e2d3c4b5a69788796a5b4c3d2e1f', 'hex');
const STANDARD = BYTES.toString('base64');

test('a ttag in standard base64 or in base64url without padding reads as its standard form (docs/spec.md §1.4)', (t) => {
  t.true(/[+/]/.test(STANDARD), 'the case holds a character the two alphabets spell differently');
  t.is(parseTtag(STANDARD), STANDARD);
  t.is(parseTtag(BYTES.toString('base64url')), STANDARD);
});

const REFUSED: ReadonlyArray<readonly [string, string, string]> = [
  ['no base64 at all', '***', 'ttag: not base64'],
  ['standard base64 without its padding, holding a + or /', STANDARD.replace(/=+$/, ''), 'ttag: not base64'],
  ['a line break inside', `${STANDARD.slice(0, 8)}\n${STANDARD.slice(8)}`, 'ttag: not base64'],
  ['fewer than 16 bytes', Buffer.alloc(15, 1).toString('base64'), 'ttag: not a key handle'],
];

for (const [title, value, message] of REFUSED) {
  test(`a ttag with ${title} is a BAD_REQUEST: ${message}`, (t) => {
    t.throws(() => parseTtag(value), { code: 'BAD_REQUEST', message });
  });
}
