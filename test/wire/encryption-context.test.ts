import test from 'ava';
import { canonicalContext, contextFault, readCanonicalContext, unmetConditionNames } from '../../src/wire/encryption-context.js';

/** The canonical form written out by hand from docs/spec.md §4.5b item 2, not with the module's writer. */
function byHand(pairs: [string, string][]): Buffer {
  const parts = [Buffer.from('keygate context v1', 'ascii'), Buffer.from([pairs.length])];
  for (const [name, value] of pairs) {
    const v = Buffer.from(value, 'utf8');
    parts.push(Buffer.from([name.length]), Buffer.from(name, 'ascii'), Buffer.from([v.length >> 8, v.length & 0xff]), v);
  }
  return Buffer.concat(parts);
}

test('the canonical form sorts names by byte order and matches the layout of §4.5b item 2', (t) => {
  const context = { tenant: 'acme', Z: '', 'a:b': 'ü🙂' };
  t.deepEqual(
    Buffer.from(canonicalContext(context)),
    byHand([
      ['Z', ''],
      ['a:b', 'ü🙂'],
      ['tenant', 'acme'],
    ]),
  );
  t.deepEqual(canonicalContext({ b: '1', a: '2' }), canonicalContext({ a: '2', b: '1' }));
});

test('no context and {} are the same: empty bytes, so earlier ciphertexts keep their additional data', (t) => {
  t.is(canonicalContext(undefined).length, 0);
  t.is(canonicalContext({}).length, 0);
});

test('the reader gives back the context the writer wrote, and refuses what is not canonical', (t) => {
  const bytes = canonicalContext({ tenant: 'acme', app: 'x' });
  t.deepEqual(readCanonicalContext(bytes), { context: { app: 'x', tenant: 'acme' } });
  const unsorted = byHand([
    ['tenant', 'acme'],
    ['app', 'x'],
  ]);
  t.regex((readCanonicalContext(unsorted) as { fault: string }).fault, /ascending/);
  t.regex((readCanonicalContext(bytes.subarray(0, bytes.length - 1)) as { fault: string }).fault, /cut short/);
  t.regex((readCanonicalContext(Buffer.concat([bytes, Buffer.from([0])])) as { fault: string }).fault, /after its last/);
  t.regex((readCanonicalContext(Buffer.from('keygate context v2\x01')) as { fault: string }).fault, /start/);
});

test('a context is refused for too many members, a bad name, a non-string, a long value or a control', (t) => {
  const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
  t.like(contextFault(seventeen), { member: '' });
  t.like(contextFault({ 'a b': 'v' }), { member: 'a b' });
  t.like(contextFault({ a: 1 }), { member: 'a' });
  t.like(contextFault({ a: 'x'.repeat(257) }), { member: 'a' });
  t.like(contextFault({ a: 'x\u0000' }), { member: 'a' });
  t.like(contextFault({ a: '\ud800' }), { member: 'a' });
  t.like(contextFault([]), { member: '' });
  t.is(contextFault({ a: 'x'.repeat(256), 'b.c/d=e+f-g@h:i_j': '' }), undefined);
});

test('a condition is met when the context holds each of its members with the same value; unmet names only', (t) => {
  t.deepEqual(unmetConditionNames({ tenant: 'acme' }, { tenant: 'acme', app: 'x' }), []);
  t.deepEqual(unmetConditionNames({ tenant: 'acme', app: 'x' }, { tenant: 'other' }), ['app', 'tenant']);
  t.deepEqual(unmetConditionNames({ tenant: 'acme' }, undefined), ['tenant']);
  t.deepEqual(unmetConditionNames({ toString: 'x' }, {}), ['toString']);
});

test('a member named __proto__ is a member like any other: written, read back as its own member, and compared', (t) => {
  const context = JSON.parse('{"__proto__":"acme","b":"1"}') as Record<string, string>;
  const bytes = canonicalContext(context);
  t.deepEqual(
    Buffer.from(bytes),
    byHand([
      ['__proto__', 'acme'],
      ['b', '1'],
    ]),
  );
  const read = readCanonicalContext(bytes);
  t.true('context' in read && Object.hasOwn(read.context, '__proto__'), JSON.stringify(read));
  t.deepEqual(Object.entries('context' in read ? read.context : {}), [
    ['__proto__', 'acme'],
    ['b', '1'],
  ]);
  t.deepEqual(
    Buffer.from(canonicalContext('context' in read ? read.context : {})),
    Buffer.from(bytes),
    'read back, it writes the same bytes',
  );
});
