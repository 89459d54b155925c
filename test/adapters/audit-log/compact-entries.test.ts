import test from 'ava';
import { packEntry, recordOf, unpackEntry } from '../../../src/adapters/audit-log/compact-entries.js';
import { MemoryAuditLog } from '../../../src/adapters/audit-log/memory-audit-log.js';
import { type AuditEntry, entryOf, outcomeEntry } from '../../../src/domain/audit/audit-entry.js';
import { verifyAuditLog } from '../../../src/domain/audit/audit-verify.js';
import { auditTestKeys, testChain, trusted } from '../../_support/audit-chain.js';
import { auditRecord } from '../../ports/audit-log.contract.js';

test('a packed entry unpacks to the entry as sealed, its prev sharing the packed MAC before it', (t) => {
  const chain = testChain('gw-test');
  const first = chain.seal(entryOf(auditRecord({ outcome: 'pending', status: 0 })));
  chain.advance(first);
  const second = chain.seal(entryOf(auditRecord()));
  const sealed = [{ ...first }, { ...second }];
  const packedFirst = packEntry({ ...first }, undefined);
  const packedSecond = packEntry({ ...second }, { mac: first.mac, packed: packedFirst.mac! });
  t.is(packedFirst.mac!.length, 32);
  t.is(packedSecond.prev, packedFirst.mac);
  t.deepEqual([unpackEntry(packedFirst), unpackEntry(packedSecond)], sealed);
});

test('a value that is no digest is kept as given', (t) => {
  const entry = { ...entryOf(auditRecord()), prev: '', mac: 'not a digest', hash: 'ABCDEF' } as AuditEntry;
  t.deepEqual(unpackEntry(packEntry({ ...entry }, undefined)), entry);
});

test('a record folds from its pending entry and its outcome as completeRecord folds it', (t) => {
  const pending = auditRecord({ outcome: 'pending', status: 0, principal: undefined });
  const outcome = outcomeEntry(pending, { outcome: 'ok', status: 200, principal: 'bob', at: pending.at + 5 });
  const { principal: _none, ...given } = pending;
  t.deepEqual(recordOf(entryOf(pending), outcome), { ...given, outcome: 'ok', status: 200, principal: 'bob' });
});

test('the memory log keeps entries packed and reads them back as sealed: the chain verifies, records fold', async (t) => {
  const keys = auditTestKeys();
  const log = new MemoryAuditLog({ chain: testChain('gw-test', keys) });
  const pending = auditRecord({ outcome: 'pending', status: 0 });
  await log.append(pending);
  await log.append(auditRecord());
  t.true(await log.complete(pending.id, { outcome: 'denied', status: 403, code: 'ACL_DENIED' }));
  t.false(await log.complete(pending.id, { outcome: 'ok', status: 200 }));
  const { entries } = await log.readChain();
  t.true(entries.every((entry) => /^[0-9a-f]{64}$/.test(entry.mac!) && /^[0-9a-f]{64}$/.test(entry.hash!)));
  t.is(entries[1]!.prev, entries[0]!.mac);
  t.like(await log.get(pending.id), { id: pending.id, outcome: 'denied', status: 403, code: 'ACL_DENIED', object: pending.object });
  const slice = await log.readChain();
  t.like(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }), { ok: true });
});
