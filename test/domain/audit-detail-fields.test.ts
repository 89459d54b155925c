import test from 'ava';
import { AUDIT_BATCH_KEYS_MAX, batchKeyUses } from '../../src/domain/audit/audit-batch-keys.js';
import { canonicalEntry, entryOf } from '../../src/domain/audit/audit-entry.js';
import { verifyAuditLog } from '../../src/domain/audit/audit-verify.js';
import { auditTestKeys, testChain, trusted } from '../_support/audit-chain.js';
import { auditRecord } from '../ports/audit-log.contract.js';

const RECORD = {
  id: '0'.repeat(32),
  at: 1_700_000_000_000,
  requestId: 'r1',
  operation: 'crypto.encrypt',
  outcome: 'ok',
  status: 200,
} as const;

test('an entry without version, items or failures keeps the canonical form of the entries written before they existed', (t) => {
  t.is(
    canonicalEntry({ ...RECORD, entry: 'record', writer: 'gw', seq: 1 }),
    `["keygate-audit-entry/1","gw",1,"record","${'0'.repeat(32)}",1700000000000,"r1","crypto.encrypt",null,null,null,"ok",200,null,null,null]`,
  );
});

test('the MAC covers version, items and failures when an entry carries them', (t) => {
  const plain = canonicalEntry({ ...RECORD, entry: 'record' });
  const detailed = canonicalEntry({ ...RECORD, entry: 'record', version: 3, items: 100, failures: 2 });
  t.is(detailed, `${plain.slice(0, -1)},3,100,2]`);
  t.not(canonicalEntry({ ...RECORD, entry: 'record', items: 100 }), canonicalEntry({ ...RECORD, entry: 'record', version: 100 }));
});

test('a chain mixing entries with and without the new fields verifies, and an edited version breaks it', (t) => {
  const keys = auditTestKeys();
  const chain = testChain('gw', keys);
  const entries = [auditRecord(), auditRecord({ version: 2 }), auditRecord({ items: 10, failures: 1 }), auditRecord()].map((record) => {
    const entry = chain.seal(entryOf(record));
    chain.advance(entry);
    return entry;
  });
  const slice = { entries, checkpoints: [], partial: false };
  t.is(verifyAuditLog({ ...slice, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, undefined);
  const edited = entries.map((entry, i) => (i === 1 ? { ...entry, version: 1 } : entry));
  t.like(verifyAuditLog({ entries: edited, checkpoints: [], partial: false, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, {
    seq: 2,
    kind: 'edited',
  });
});

test("the MAC covers a batch's keys and the count omitted when an entry carries them, after the detail fields", (t) => {
  const detailed = canonicalEntry({ ...RECORD, entry: 'record', items: 3, failures: 1 });
  const keyed = canonicalEntry({
    ...RECORD,
    entry: 'record',
    items: 3,
    failures: 1,
    keys: [{ ttag: 'a2V5', version: 2 }, { ttag: 'b3Ro' }],
  });
  t.is(keyed, `${detailed.slice(0, -1)},[["a2V5",2],["b3Ro",null]],null]`);
  t.not(
    keyed,
    canonicalEntry({ ...RECORD, entry: 'record', items: 3, failures: 1, keys: [{ ttag: 'a2V5', version: 1 }, { ttag: 'b3Ro' }] }),
  );
  t.not(canonicalEntry({ ...RECORD, entry: 'record', keys: [] }), canonicalEntry({ ...RECORD, entry: 'record', keysOmitted: 0 }));
});

test("a chain mixing entries with and without a batch's keys verifies, and an edited key or version breaks it", (t) => {
  const keys = auditTestKeys();
  const chain = testChain('gw', keys);
  const records = [
    auditRecord(),
    auditRecord({
      items: 2,
      failures: 0,
      keys: [
        { ttag: 'a2V5', version: 1 },
        { ttag: 'b3Ro', version: 2 },
      ],
    }),
    auditRecord({ version: 2 }),
  ];
  const entries = records.map((record) => {
    const entry = chain.seal(entryOf(record));
    chain.advance(entry);
    return entry;
  });
  const verify = (list: typeof entries) =>
    verifyAuditLog({ entries: list, checkpoints: [], partial: false, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak;
  t.is(verify(entries), undefined);
  t.like(verify(entries.map((entry, i) => (i === 1 ? { ...entry, keys: [{ ttag: 'a2V5', version: 1 }] } : entry))), {
    seq: 2,
    kind: 'edited',
  });
  t.like(
    verify(
      entries.map((entry, i) =>
        i === 1
          ? {
              ...entry,
              keys: [
                { ttag: 'a2V5', version: 1 },
                { ttag: 'b3Ro', version: 1 },
              ],
            }
          : entry,
      ),
    ),
    {
      seq: 2,
      kind: 'edited',
    },
  );
});

test("a batch's keys are distinct, in the order first named, a versionless use dropped beside a versioned one, and bounded", (t) => {
  t.deepEqual(
    batchKeyUses([
      { ttag: 'a', version: 1 },
      { ttag: 'b' },
      { ttag: 'a', version: 1 },
      { ttag: 'a', version: 2 },
      { ttag: 'c' },
      { ttag: 'c', version: 3 },
    ]),
    {
      keys: [{ ttag: 'a', version: 1 }, { ttag: 'b' }, { ttag: 'a', version: 2 }, { ttag: 'c', version: 3 }],
    },
  );
  const many = Array.from({ length: AUDIT_BATCH_KEYS_MAX + 5 }, (_, i) => ({ ttag: `k${i}`, version: 1 }));
  const bounded = batchKeyUses([...many, ...many]);
  t.is(bounded.keys.length, AUDIT_BATCH_KEYS_MAX);
  t.is(bounded.keysOmitted, 5);
  t.deepEqual(bounded.keys[0], { ttag: 'k0', version: 1 });
});

test('the MAC covers the alias a request named its key by, after the batch fields; an entry without one keeps its form', (t) => {
  const plain = canonicalEntry({ ...RECORD, entry: 'record', object: 'a2V5', version: 2 });
  const aliased = canonicalEntry({ ...RECORD, entry: 'record', object: 'a2V5', version: 2, alias: 'billing' });
  t.is(aliased, `${plain.slice(0, -1)},null,null,"billing"]`);
  t.not(aliased, canonicalEntry({ ...RECORD, entry: 'record', object: 'a2V5', version: 2, alias: 'billinh' }));
  const keys = auditTestKeys();
  const chain = testChain('gw', keys);
  const entries = [auditRecord(), auditRecord({ object: 'a2V5', alias: 'billing' }), auditRecord()].map((record) => {
    const entry = chain.seal(entryOf(record));
    chain.advance(entry);
    return entry;
  });
  t.is(verifyAuditLog({ entries, checkpoints: [], partial: false, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, undefined);
  const edited = entries.map((entry, i) => (i === 1 ? { ...entry, alias: 'other' } : entry));
  t.like(verifyAuditLog({ entries: edited, checkpoints: [], partial: false, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak, {
    seq: 2,
    kind: 'edited',
  });
});

test("the MAC covers a signing key's type, algorithm and kid, after the alias; an entry without them keeps its form", (t) => {
  const KID = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';
  const plain = canonicalEntry({ ...RECORD, entry: 'record', object: 'a2V5', version: 2 });
  const aliased = canonicalEntry({ ...RECORD, entry: 'record', object: 'a2V5', version: 2, alias: 'billing' });
  const signed = canonicalEntry({ ...RECORD, entry: 'record', object: 'a2V5', version: 2, keyType: 'ec-p256', alg: 'ES256', kid: KID });
  t.is(signed, `${plain.slice(0, -1)},null,null,null,"ec-p256","ES256","${KID}"]`);
  t.is(
    canonicalEntry({ ...RECORD, entry: 'record', object: 'a2V5', version: 2, alias: 'billing', kid: KID }),
    `${aliased.slice(0, -1)},null,null,"${KID}"]`,
  );
  t.is(aliased, `${plain.slice(0, -1)},null,null,"billing"]`, 'an aliased entry without them keeps the form it had');
  // Each field has its own place: the same text in another one is another entry.
  t.not(canonicalEntry({ ...RECORD, entry: 'record', keyType: 'ed25519' }), canonicalEntry({ ...RECORD, entry: 'record', alg: 'ed25519' }));
  t.not(canonicalEntry({ ...RECORD, entry: 'record', kid: 'abc' }), canonicalEntry({ ...RECORD, entry: 'record', alias: 'abc' }));
});

test('a chain mixing entries written before the signing fields with entries carrying them verifies; an edited kid, alg or type breaks it', (t) => {
  const keys = auditTestKeys();
  const chain = testChain('gw', keys);
  const signing = { operation: 'crypto.sign', object: 'a2V5', version: 2, keyType: 'rsa-2048', alg: 'PS256', kid: 'k1d-_A' };
  const records = [
    auditRecord(),
    auditRecord({ object: 'a2V5', alias: 'billing', version: 1 }),
    auditRecord(signing),
    auditRecord({ items: 2, failures: 0, keys: [{ ttag: 'a2V5', version: 1 }] }),
    auditRecord({ operation: 'keys.public-key', kid: 'k1d-_A' }),
  ];
  const entries = records.map((record) => {
    const entry = chain.seal(entryOf(record));
    chain.advance(entry);
    return entry;
  });
  const verify = (list: typeof entries) =>
    verifyAuditLog({ entries: list, checkpoints: [], partial: false, macKey: keys.macKey, publicKeys: trusted(keys) }).firstBreak;
  t.is(verify(entries), undefined);
  for (const edit of [{ kid: 'k1d-_B' }, { alg: 'RS256' }, { keyType: 'rsa-4096' }, { kid: undefined }]) {
    const edited = entries.map((entry, i) => (i === 2 ? { ...entry, ...edit } : entry));
    t.like(verify(edited), { seq: 3, kind: 'edited' }, JSON.stringify(edit));
  }
  const stripped = entries.map((entry, i) => (i === 4 ? { ...entry, kid: undefined } : entry));
  t.like(verify(stripped), { seq: 5, kind: 'edited' }, 'a kid removed from an entry that carried only it');
});
