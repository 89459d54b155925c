import { generateKeyPairSync, sign } from 'node:crypto';
import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { CHECKPOINT_DEFAULTS } from '../../src/domain/audit/audit-chain.js';
import {
  type AuditCheckpoint,
  type AuditEntry,
  type ChainedAuditEntry,
  canonicalCheckpoint,
  entryMac,
} from '../../src/domain/audit/audit-entry.js';
import { AuditLogVerifier, inChainOrder, verifyAuditLog } from '../../src/domain/audit/audit-verify.js';
import { auditTestKeys, testChain, trusted } from '../_support/audit-chain.js';
import { auditRecord } from '../ports/audit-log.contract.js';

const keys = auditTestKeys();

/** A chain of `count` entries by one writer, checkpointed every 4, as a store makes it. */
async function history(count = 10, writer = 'w1') {
  let now = Date.UTC(2026, 0, 1);
  const log = new MemoryAuditLog({ chain: testChain(writer, keys, { checkpointEvery: 4, now: () => now }) });
  for (let i = 0; i < count; i += 1) {
    now += 1000;
    await log.append(auditRecord({ at: now }));
  }
  const slice = await log.readChain();
  return { entries: [...slice.entries] as ChainedAuditEntry[], checkpoints: [...slice.checkpoints] };
}

const verify = (entries: readonly AuditEntry[], checkpoints: readonly AuditCheckpoint[], withKey = true) =>
  verifyAuditLog({ entries, checkpoints, publicKeys: trusted(keys), ...(withKey ? { macKey: keys.macKey } : {}) });

test('an untouched chain verifies, with and without the MAC key; the summary names writer, count, head and checkpoint', async (t) => {
  const { entries, checkpoints } = await history();
  t.deepEqual(verify(entries, checkpoints), {
    ok: true,
    checked: 10,
    writers: [{ writer: 'w1', entries: 10, lastSeq: 10, lastCheckpoint: 8, breaks: 0, unlisted: 0 }],
    breaks: [],
  });
  t.true(verify(entries, checkpoints, false).ok);
  t.true(verify([...entries].reverse(), checkpoints).ok, 'the order rows are read in does not matter');
});

test('an edited entry is found by its MAC; without the key, by the checkpoint that signed it', async (t) => {
  const { entries, checkpoints } = await history();
  const edited = entries.map((e) => (e.seq === 3 ? { ...e, principal: 'mallory' } : e));
  t.like(verify(edited, checkpoints).firstBreak, { seq: 3, kind: 'edited', id: entries[2]!.id });
  const recomputed = entries.map((e) =>
    e.seq === 8 ? { ...e, principal: 'mallory', mac: 'ee'.repeat(32) } : e.seq === 9 ? { ...e, prev: 'ee'.repeat(32) } : e,
  );
  t.like(verify(recomputed, checkpoints, false).firstBreak, { seq: 8, kind: 'edited' });
});

test('deleted, inserted and reordered entries are told apart by what their neighbours link to', async (t) => {
  const { entries, checkpoints } = await history();
  t.like(
    verify(
      entries.filter((e) => e.seq !== 5),
      checkpoints,
    ).firstBreak,
    { seq: 6, kind: 'deleted' },
  );
  const renumbered = entries.filter((e) => e.seq !== 5).map((e) => (e.seq > 5 ? { ...e, seq: e.seq - 1 } : e));
  t.like(verify(renumbered, checkpoints, false).firstBreak, { seq: 5, kind: 'deleted' });
  const forged: ChainedAuditEntry = { ...entries[4]!, id: 'f'.repeat(32), mac: 'ab'.repeat(32) };
  const inserted = [...entries.slice(0, 4), forged, ...entries.slice(4).map((e) => ({ ...e, seq: e.seq + 1 }))];
  t.like(verify(inserted, checkpoints).firstBreak, { seq: 5, kind: 'inserted', id: forged.id });
  t.like(verify(inserted, checkpoints, false).firstBreak, { seq: 5, kind: 'inserted' });
  const swapped = entries.map((e) => (e.seq === 5 ? { ...e, seq: 6 } : e.seq === 6 ? { ...e, seq: 5 } : e));
  t.like(verify(swapped, checkpoints, false).firstBreak, { seq: 5, kind: 'reordered' });
  const unchained = [...entries, auditRecord({ at: Date.UTC(2025, 0, 1) }) as AuditEntry];
  t.like(verify(unchained, checkpoints).firstBreak, { kind: 'inserted' });
});

const listed = (answer: ReturnType<typeof verify>) => answer.breaks.map(({ seq, kind }) => `${seq} ${kind}`);

test('every break of a writer is listed, not only the first: an early edit hides no later one', async (t) => {
  const { entries, checkpoints } = await history(20);
  const twice = entries.map((e) => (e.seq === 2 || e.seq === 17 ? { ...e, principal: 'mallory' } : e));
  const answer = verify(twice, checkpoints);
  t.deepEqual(listed(answer), ['2 edited', '17 edited']);
  t.like(answer, { ok: false, firstBreak: { seq: 2, kind: 'edited' }, writers: [{ writer: 'w1', breaks: 2, unlisted: 0 }] });
  // Without the key the hash chain shows both, with no echo from the checkpoints above them.
  t.deepEqual(listed(verify(twice, checkpoints, false)), ['2 edited', '17 edited']);
  // A swapped pair is one break, an entry deleted one, and an edit after them still shows.
  const mixed = entries
    .filter((e) => e.seq !== 9)
    .map((e) => (e.seq === 5 ? { ...e, seq: 6 } : e.seq === 6 ? { ...e, seq: 5 } : e.seq === 14 ? { ...e, object: 'other' } : e));
  t.deepEqual(listed(verify(mixed, checkpoints)), ['5 reordered', '10 deleted', '14 edited']);
});

test('past 100 breaks of a writer the rest are counted, not listed', async (t) => {
  const { entries, checkpoints } = await history(130);
  const edited = entries.map((e) => (e.seq % 2 === 0 ? { ...e, principal: 'mallory' } : e));
  const answer = verify(edited, checkpoints);
  t.is(answer.breaks.length, 65);
  t.like(answer.writers[0], { breaks: 65, unlisted: 0 });
  const all = entries.map((e) => ({ ...e, principal: 'mallory' }));
  const many = verify(all, checkpoints);
  t.is(many.breaks.length, 100);
  t.like(many.writers[0], { breaks: 130, unlisted: 30 });
  t.like(many.firstBreak, { seq: 1, kind: 'edited' });
});

test('a chain cut after a checkpoint is truncated; a checkpoint not signed by a trusted key is forged', async (t) => {
  const { entries, checkpoints } = await history();
  t.like(
    verify(
      entries.filter((e) => e.seq <= 6),
      checkpoints,
    ).firstBreak,
    { writer: 'w1', seq: 8, kind: 'truncated' },
  );
  t.like(verify([], checkpoints).firstBreak, { writer: 'w1', kind: 'truncated' });
  const altered = checkpoints.map((c) => (c.seq === 8 ? { ...c, mac: entries[6]!.mac } : c));
  t.like(verify(entries, altered).firstBreak, { seq: 8, kind: 'forged-checkpoint' });
  const stranger = generateKeyPairSync('ed25519').privateKey;
  const content = { writer: 'w1', seq: 10, mac: entries[9]!.mac, at: Date.UTC(2026, 0, 2) };
  const foreign = {
    ...content,
    keyId: '0123456789abcdef',
    signature: sign(null, canonicalCheckpoint(content), stranger).toString('base64'),
  };
  const untrusted = verify(entries, [...checkpoints, foreign]).firstBreak;
  t.like(untrusted, { seq: 10, kind: 'forged-checkpoint' });
  t.regex(untrusted!.detail, /not trusted/);
});

test('the MAC covers writer, seq and content; the defaults are a checkpoint every 1000 entries or 60 s', (t) => {
  const entry = { ...auditRecord(), entry: 'record', writer: 'w1', seq: 1, prev: '' } as const;
  const mac = entryMac(keys.macKey, entry);
  t.not(entryMac(keys.macKey, { ...entry, writer: 'w2' }), mac);
  t.not(entryMac(keys.macKey, { ...entry, seq: 2 }), mac);
  t.not(entryMac(keys.macKey, { ...entry, prev: 'aa' }), mac);
  t.not(entryMac(keys.macKey, { ...entry, entry: 'pending' }), mac);
  t.deepEqual(CHECKPOINT_DEFAULTS, { every: 1000, seconds: 60 });
});

test("an entry's MAC is HMAC-SHA256 over its canonical content, a newline and the previous MAC: entries written earlier still verify", (t) => {
  const entry: ChainedAuditEntry = {
    entry: 'outcome',
    writer: 'w1',
    seq: 2,
    prev: 'ab'.repeat(32),
    mac: '',
    id: '01JABCDEFGHJKMNPQRSTVWXYZ0',
    at: Date.UTC(2026, 0, 1),
    requestId: 'req-1',
    operation: 'keys.export',
    principal: 'alice',
    sessionRef: 's-ref',
    outcome: 'ok',
    status: 200,
    clientAddress: '192.0.2.1',
  };
  // Computed once from api-surface.md's definition, with the content, '\n' and prev as three updates.
  t.is(entryMac(Buffer.alloc(32, 7), entry), '2d701eb7f19e5d1f796a0376678dee0190c478e67f1f530ddb2aec333c3d1d2b');
});

test('a checkpoint falls due after T seconds with at least one entry since the last', async (t) => {
  let now = Date.UTC(2026, 0, 1);
  const chain = testChain('w1', keys, { checkpointSeconds: 60, now: () => now });
  const log = new MemoryAuditLog({ chain });
  await log.append(auditRecord());
  t.false(chain.checkpointDue());
  now += 60_000;
  t.true(chain.checkpointDue());
  await log.append(auditRecord());
  t.is((await log.readChain()).checkpoints.length, 1);
  t.false(chain.checkpointDue(), 'nothing appended since');
});

/** The same entries given to one verifier in pages of `size`, in chain order. */
function verifyInPages(entries: readonly AuditEntry[], checkpoints: readonly AuditCheckpoint[], size: number) {
  const verifier = new AuditLogVerifier({ checkpoints, publicKeys: trusted(keys), macKey: keys.macKey });
  const ordered = inChainOrder(entries);
  for (let start = 0; start < ordered.length; start += size) verifier.add(ordered.slice(start, start + size));
  return verifier.result();
}

test('page by page, whatever the page size, the answer is the one for the whole log, across writers and breaks', async (t) => {
  const a = await history(9, 'w1');
  const b = await history(7, 'w2');
  const clean = { entries: [...b.entries, ...a.entries], checkpoints: [...a.checkpoints, ...b.checkpoints] };
  const broken = { ...clean, entries: clean.entries.filter((e) => !(e.writer === 'w2' && e.seq === 3)) };
  const unchained = { ...clean, entries: [...clean.entries, { ...auditRecord(), entry: 'record' as const }] };
  for (const log of [clean, broken, unchained]) {
    const whole = verify(log.entries, log.checkpoints);
    for (const size of [1, 2, 5, 1000]) t.deepEqual(verifyInPages(log.entries, log.checkpoints, size), whole, `pages of ${size}`);
  }
  t.like(verify(broken.entries, broken.checkpoints), { ok: false, firstBreak: { writer: 'w2', seq: 4, kind: 'deleted' } });
  t.like(verify(unchained.entries, unchained.checkpoints), { ok: false, firstBreak: { writer: '', kind: 'inserted' } });
});

test("a writer's entries given apart (another writer's between them) are refused, never verified out of order", async (t) => {
  const a = await history(4, 'w1');
  const b = await history(4, 'w2');
  const verifier = new AuditLogVerifier({ checkpoints: [], publicKeys: trusted(keys) });
  verifier.add(a.entries.slice(0, 2));
  verifier.add(b.entries);
  t.throws(() => verifier.add(a.entries.slice(2)), { message: /not given together/ });
});
