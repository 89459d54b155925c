import test from 'ava';
import { htuMatches, normaliseHtu } from '../../../src/domain/proof/normalise-htu.js';

const normalised: [string, string | undefined][] = [
  ['https://gateway.example/api/keys', 'https://gateway.example/api/keys'],
  ['HTTPS://Gateway.EXAMPLE/api/keys', 'https://gateway.example/api/keys'],
  ['https://gateway.example:443/api/keys', 'https://gateway.example/api/keys'],
  ['http://gateway.example:80/api/keys', 'http://gateway.example/api/keys'],
  ['http://gateway.example:443/api/keys', 'http://gateway.example:443/api/keys'],
  ['https://gateway.example:8443/api/keys', 'https://gateway.example:8443/api/keys'],
  ['https://gateway.example:08443/api/keys', 'https://gateway.example:8443/api/keys'],
  ['https://gateway.example:/api/keys', 'https://gateway.example/api/keys'],
  ['https://gateway.example/api/keys?cursor=abc#top', 'https://gateway.example/api/keys'],
  ['https://gateway.example#top', 'https://gateway.example/'],
  ['https://gateway.example', 'https://gateway.example/'],
  ['https://[::1]:8443/api/Keys/', 'https://[::1]:8443/api/Keys/'],
  ['https://127.0.0.1/api/%7Ekeys', 'https://127.0.0.1/api/%7Ekeys'],
  ['https://gateway.example/api/./keys', 'https://gateway.example/api/./keys'],
  ['/api/keys', undefined],
  ['gateway.example/api/keys', undefined],
  ['https:///api/keys', undefined],
  ['https://user@gateway.example/api/keys', undefined],
  ['https://gateway.example:99999/api/keys', undefined],
  ['https://gateway.example:443x/api/keys', undefined],
  ['', undefined],
];

for (const [input, output] of normalised) {
  test(`normalises ${JSON.stringify(input)} to ${JSON.stringify(output)}`, (t) => {
    t.is(normaliseHtu(input), output);
  });
}

test('an htu that cannot be read matches nothing, not even itself', (t) => {
  t.false(htuMatches('/api/keys', '/api/keys'));
  t.false(htuMatches('https://a.example/x', 'not a uri'));
  t.true(htuMatches('https://A.example:443/x?q', 'https://a.example/x'));
});
