import test from 'ava';
import { AuditChainRegressedError } from '../../src/domain/audit/audit.errors.js';
import { entryOf } from '../../src/domain/audit/audit-entry.js';
import { checkHashChain } from '../../src/domain/audit/audit-hash-chain.js';
import { auditTestKeys, testChain } from '../_support/audit-chain.js';
import { auditRecord } from '../ports/audit-log.contract.js';

/** A chain that committed three entries; answers it and their heads. */
function committedThree(options: Parameters<typeof testChain>[2] = {}) {
  const chain = testChain('gw', auditTestKeys(), options);
  const sealed = [];
  for (let i = 0; i < 3; i += 1) {
    const entry = chain.seal(entryOf(auditRecord()));
    chain.advance(entry);
    sealed.push(entry);
  }
  chain.committed();
  return { chain, sealed };
}

const regressions = [
  { name: 'a shorter chain', head: (s: { seq: number; mac: string }[]) => s[1]! },
  { name: 'an empty store', head: () => ({ seq: 0, mac: '' }) },
  { name: 'another entry at the committed seq', head: (s: { seq: number; mac: string }[]) => ({ seq: s[2]!.seq, mac: 'ab'.repeat(32) }) },
];

for (const { name, head } of regressions) {
  test(`restore refuses ${name}, tells once, and keeps refusing`, (t) => {
    const told: string[] = [];
    const { chain, sealed } = committedThree({ onRegression: (detail) => told.push(detail) });
    t.throws(() => chain.restore(head(sealed), 0), { instanceOf: AuditChainRegressedError, code: 'AUDIT_UNAVAILABLE' } as never);
    t.throws(() => chain.restore({ seq: 3, mac: sealed[2]!.mac }, 0), { instanceOf: AuditChainRegressedError });
    t.is(told.length, 1);
    t.truthy(chain.regression);
  });
}

test('restore accepts the committed head, or a longer chain written by another process as this writer', (t) => {
  const { chain, sealed } = committedThree();
  t.notThrows(() => chain.restore({ seq: 3, mac: sealed[2]!.mac }, 0));
  t.notThrows(() => chain.restore({ seq: 5, mac: 'cd'.repeat(32) }, 0));
  t.is(chain.regression, undefined);
});

test('a head sealed but never committed is not a floor: a failed commit may go back to the last committed head', (t) => {
  const { chain, sealed } = committedThree();
  chain.advance(chain.seal(entryOf(auditRecord())));
  t.notThrows(() => chain.restore({ seq: 3, mac: sealed[2]!.mac }, 0));
});

test('a witnessed head is the floor from the start; the witness is told every committed head that moved, checkpointed or not', (t) => {
  const keys = auditTestKeys();
  t.throws(() => testChain('gw', keys, { witnessed: { seq: 4, mac: 'ef'.repeat(32) } }).restore({ seq: 0, mac: '' }, 0), {
    instanceOf: AuditChainRegressedError,
  });
  const witnessed: number[] = [];
  const chain = testChain('gw', keys, { checkpointEvery: 2, onWitness: (head) => witnessed.push(head.seq) });
  for (let i = 0; i < 4; i += 1) {
    chain.advance(chain.seal(entryOf(auditRecord())));
    if (chain.checkpointDue()) chain.checkpointed(chain.checkpoint()!);
    chain.committed();
  }
  chain.committed();
  t.deepEqual(witnessed, [1, 2, 3, 4], 'each group commit once, none for a commit that did not move the head');
});

test('the public hash chain: an edit, a missing hash after hashed ones, and a partial slice', (t) => {
  const { sealed } = committedThree();
  t.is(checkHashChain(sealed), undefined);
  const edited = sealed.map((entry, i) => (i === 1 ? { ...entry, outcome: 'denied' as const } : entry));
  t.like(checkHashChain(edited)?.found, { seq: 2, kind: 'edited' });
  const { hash: _dropped, ...unhashed } = sealed[1]!;
  t.like(checkHashChain([sealed[0]!, unhashed, sealed[2]!])?.found, { seq: 2, kind: 'edited' });
  t.is(checkHashChain(sealed.slice(1), true), undefined, 'a slice takes its first hash as given');
  t.like(checkHashChain(sealed.slice(1))?.found, { seq: 2 }, 'the whole chain does not');
});
