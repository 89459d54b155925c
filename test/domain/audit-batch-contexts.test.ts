import test from 'ava';
import { AUDIT_BATCH_CONTEXTS_MAX, batchContexts, requestContext } from '../../src/domain/audit/audit-batch-contexts.js';

/** docs/spec.md §9.1 `context`, `contexts`, `contextsOmitted`: what a record names of the contexts a request named. */

test('a single request names its context in canonical member order, and nothing for none or {}', (t) => {
  t.deepEqual(requestContext(undefined), {});
  t.deepEqual(requestContext({}), {});
  const named = requestContext({ tenant: 'acme', purpose: 'billing' });
  t.deepEqual(named, { context: { purpose: 'billing', tenant: 'acme' } });
  t.deepEqual(Object.keys(named.context ?? {}), ['purpose', 'tenant']);
});

test('a batch names each distinct non-empty context once, in the order first named, member order not counting', (t) => {
  const named = batchContexts([undefined, { b: '2', a: '1' }, {}, { x: 'y' }, { a: '1', b: '2' }, { a: '1' }, undefined]);
  t.deepEqual(named, { contexts: [{ a: '1', b: '2' }, { x: 'y' }, { a: '1' }] });
  t.deepEqual(batchContexts([undefined, {}]), {}, 'none named: no field');
  t.deepEqual(batchContexts([{ a: '' }, { a: '' }]), { contexts: [{ a: '' }] }, 'an empty value is a member');
});

test(`a batch names at most ${AUDIT_BATCH_CONTEXTS_MAX} contexts and counts the others in contextsOmitted`, (t) => {
  const many = Array.from({ length: 40 }, (_, i) => ({ n: String(i % 20) }));
  const named = batchContexts(many);
  t.is(named.contexts?.length, AUDIT_BATCH_CONTEXTS_MAX);
  t.deepEqual(named.contexts?.[15], { n: '15' });
  t.is(named.contextsOmitted, 20 - AUDIT_BATCH_CONTEXTS_MAX);
  t.false('contextsOmitted' in batchContexts(many.slice(0, 16)));
});
