import test from 'ava';
import { filesMatching } from '../_support/source-files.js';

test('RandomSource is declared once, in src/crypto, where both the gateway and the key server may import it', (t) => {
  t.deepEqual(filesMatching('src', /\b(?:interface|type)\s+RandomSource\b/), ['src/crypto/random-source.ts']);
});
