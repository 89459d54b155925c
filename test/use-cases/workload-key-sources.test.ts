import test from 'ava';
import { WorkloadKeySources } from '../../src/use-cases/workload-key-sources.js';
import { MAX_ISSUERS } from '../../src/wire/workload-issuer.js';

const source = (n: number) => ({ issuer: `issuer-${n}`, jwksUri: `https://issuer-${n}.example/jwks` });

test('holds two entries per issuer the key server may keep at most, letting the least recently told go first', (t) => {
  const sources = new WorkloadKeySources();
  for (let n = 0; n < 2 * MAX_ISSUERS; n++) sources.remember(undefined, `https://${n}.example`, source(n));
  t.is(sources.size, 2 * MAX_ISSUERS);
  // Told again: now the newest, so the next one in lets the second-oldest go.
  sources.remember(undefined, 'https://0.example', source(0));
  sources.remember(undefined, 'https://new.example', source(-1));
  t.is(sources.size, 2 * MAX_ISSUERS);
  t.deepEqual(sources.get(undefined, 'https://0.example'), source(0));
  t.is(sources.get(undefined, 'https://1.example'), undefined);
  t.deepEqual(sources.get(undefined, 'https://new.example'), source(-1));
});

test('a sign-in naming its issuer and one finding it by iss are remembered apart, each replaced or forgotten alone', (t) => {
  const sources = new WorkloadKeySources(4);
  sources.remember('github', 'https://token.example', source(1));
  t.is(sources.get(undefined, 'https://token.example'), undefined);
  sources.remember(undefined, 'https://token.example', source(2));
  sources.remember('github', 'https://token.example', source(3));
  t.deepEqual(sources.get('github', 'https://token.example'), source(3));
  sources.forget('github', 'https://token.example');
  t.is(sources.get('github', 'https://token.example'), undefined);
  t.deepEqual(sources.get(undefined, 'https://token.example'), source(2));
  t.is(sources.size, 1);
});
