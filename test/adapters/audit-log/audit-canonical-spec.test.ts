import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { SqliteAuditLog } from '../../../src/adapters/audit-log/sqlite-audit-log.js';
import type { AuditEntry } from '../../../src/domain/audit/audit-entry.js';
import { auditTestKeys, testChain } from '../../_support/audit-chain.js';
import { auditRecord } from '../../ports/audit-log.contract.js';

/**
 * The canonical content as docs/spec.md §9.3 states it, written from the text alone (not from
 * src/domain/audit/audit-entry.ts): the fixed fields, then each later group up to the last one the
 * entry carries a field of, absent fields as null.
 */
function contentBySpec(e: AuditEntry): string {
  const fields: unknown[] = [
    'keygate-audit-entry/1',
    e.writer,
    e.seq,
    e.entry,
    e.id,
    e.at,
    e.requestId,
    e.operation,
    e.principal,
    e.sessionRef,
    e.object,
    e.outcome,
    e.status,
    e.code,
    e.clientAddress,
    e.actingFor,
  ];
  const groups: unknown[][] = [
    [e.version, e.items, e.failures],
    [e.keys?.map((use) => [use.ttag, use.version ?? null]), e.keysOmitted],
    [e.alias],
    [e.keyType, e.alg, e.kid],
    [pairsBySpec(e.context), e.contexts?.map(pairsBySpec), e.contextsOmitted],
  ];
  let last = -1;
  groups.forEach((group, i) => {
    if (group.some((value) => value !== undefined)) last = i;
  });
  for (const group of groups.slice(0, last + 1)) fields.push(...group);
  return JSON.stringify(fields.map((value) => value ?? null));
}

/** §9.3: a context as the array of its `[name, value]` pairs, in ascending byte order of the names. */
function pairsBySpec(context: Readonly<Record<string, string>> | undefined): [string, string][] | undefined {
  if (context === undefined) return undefined;
  const names = Object.keys(context).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return names.map((name) => [name, context[name]!]);
}

test('every entry a store gives back carries the MAC and hash an independent reading of §9.3 computes, signing and context fields or not', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-canonical-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const keys = auditTestKeys();
  const log = SqliteAuditLog.open({ file: join(dir, 'audit.db'), chain: testChain('gw', keys) });
  t.teardown(() => log.close());
  const kid = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';
  const pending = auditRecord({ operation: 'crypto.sign', outcome: 'pending', status: 0 });
  for (const record of [
    auditRecord(),
    auditRecord({ version: 2 }),
    auditRecord({ items: 3, failures: 1, keys: [{ ttag: 'a2V5', version: 1 }, { ttag: 'b3Ro' }], keysOmitted: 2 }),
    auditRecord({ alias: 'billing', version: 1 }),
    auditRecord({ operation: 'keys.public-key', keyType: 'ed25519', alg: 'EdDSA', kid, version: 1 }),
    auditRecord({ operation: 'keys.jwks', kid }),
    auditRecord({
      operation: 'crypto.encrypt',
      version: 1,
      context: { tenant: 'acme', Z: '\u{1F511}', '10': 'ten', '9': '', _: 'x'.repeat(256) },
    }),
    auditRecord({ operation: 'crypto.decrypt', items: 9, failures: 0, contexts: [{ b: '1', a: '2' }, { a: '2' }], contextsOmitted: 3 }),
    auditRecord({ operation: 'crypto.rewrap', contextsOmitted: 1 }),
    pending,
  ])
    await log.append(record);
  await log.complete(pending.id, { outcome: 'ok', status: 200, version: 4, alias: 'tokens', keyType: 'rsa-2048', alg: 'RS384', kid });
  const datakey = auditRecord({ operation: 'crypto.datakey', outcome: 'pending', status: 0, context: { tenant: 'acme' } });
  await log.append(datakey);
  await log.complete(datakey.id, { outcome: 'ok', status: 200, version: 1, context: { tenant: 'acme' } });
  const { entries } = await log.readChain();
  t.is(entries.length, 13);
  let hash = '';
  for (const entry of [...entries].sort((a, b) => a.seq! - b.seq!)) {
    const content = contentBySpec(entry);
    t.is(entry.mac, createHmac('sha256', keys.macKey).update(`${content}\n${entry.prev}`).digest('hex'), content);
    hash = createHash('sha256').update(`${hash}${content}`).digest('hex');
    t.is(entry.hash, hash, content);
  }
  t.true(entries.some((entry) => entry.entry === 'outcome' && entry.kid === kid && entry.alias === 'tokens'));
  t.true(entries.some((entry) => entry.entry === 'outcome' && entry.context?.tenant === 'acme'));
});
