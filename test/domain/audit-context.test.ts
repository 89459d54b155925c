import test from 'ava';
import { AUDIT_CONTEXTS_MAX, auditContextFields, auditContextPairs } from '../../src/domain/audit/audit-context.js';

test('a context is sealed as its pairs in ascending byte order of the names, whatever order it was given in', (t) => {
  t.deepEqual(auditContextPairs({ b: '1', '10': 'x', '9': 'y', B: '2', a: '' }), [
    ['10', 'x'],
    ['9', 'y'],
    ['B', '2'],
    ['a', ''],
    ['b', '1'],
  ]);
  // UTF-8 byte order, not UTF-16 code units: U+FFFF (EF BF BF) sorts before U+10000 (F0 90 80 80).
  t.deepEqual(auditContextPairs({ '\u{10000}': 'astral', '\uffff': 'bmp' }), [
    ['\uffff', 'bmp'],
    ['\u{10000}', 'astral'],
  ]);
});

test('a context within §4.5b item 1 is kept as given, a member named __proto__ a member', (t) => {
  const context = JSON.parse('{"__proto__":"p","tenant":"acme"}') as Record<string, string>;
  const kept = auditContextFields({ context });
  t.deepEqual(kept, { context });
  t.true(Object.hasOwn(kept.context!, '__proto__'));
  t.is(Object.getPrototypeOf(kept.context), Object.prototype);
});

test("a batch's contexts: each distinct one once, in the order first named, at most the bound, the rest counted", (t) => {
  const many = Array.from({ length: AUDIT_CONTEXTS_MAX + 3 }, (_, i) => ({ item: String(i) }));
  t.deepEqual(auditContextFields({ contexts: [{ a: '1', b: '2' }, {}, { b: '2', a: '1' }, { a: '1' }] }), {
    contexts: [{ a: '1', b: '2' }, { a: '1' }],
  });
  t.deepEqual(auditContextFields({ contexts: [...many, ...many] }), { contexts: many.slice(0, AUDIT_CONTEXTS_MAX), contextsOmitted: 3 });
  t.deepEqual(auditContextFields({ contexts: many, contextsOmitted: 2 }), {
    contexts: many.slice(0, AUDIT_CONTEXTS_MAX),
    contextsOmitted: 5,
  });
  t.deepEqual(auditContextFields({ contexts: [{}], contextsOmitted: 0 }), {});
  t.deepEqual(auditContextFields({ contextsOmitted: -1 }), {});
});

test('a single request records its context in the order the chain seals it, and nothing for none or {}', (t) => {
  t.deepEqual(auditContextFields({}), {});
  t.deepEqual(auditContextFields({ context: {} }), {});
  const named = auditContextFields({ context: { tenant: 'acme', purpose: 'billing' } });
  t.deepEqual(named, { context: { purpose: 'billing', tenant: 'acme' } });
  t.deepEqual(Object.keys(named.context ?? {}), ['purpose', 'tenant']);
  t.deepEqual(auditContextFields({ contexts: [{ a: '' }, { a: '' }] }), { contexts: [{ a: '' }] }, 'an empty value is a member');
});
