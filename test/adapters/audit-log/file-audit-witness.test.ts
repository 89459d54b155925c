import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { FileAuditWitness } from '../../../src/adapters/audit-log/file-audit-witness.js';

test('the witness file is rewritten after each head, a shorter content leaving no stale tail, mode 0600', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-witness-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const witness = new FileAuditWitness(dir);
  witness.recordNow({ writer: 'gw-a', seq: 1, mac: 'ab'.repeat(32) });
  witness.recordNow({ writer: 'gw-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', seq: 123_456_789, mac: 'cd'.repeat(32) });
  witness.recordNow({ writer: 'gw-a', seq: 2, mac: 'ef'.repeat(32) });
  t.deepEqual(witness.headsNow(), [
    { writer: 'gw-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', seq: 123_456_789, mac: 'cd'.repeat(32) },
    { writer: 'gw-a', seq: 2, mac: 'ef'.repeat(32) },
  ]);
  t.is(statSync(witness.file).mode & 0o777, 0o600);
  const other = new FileAuditWitness(dir);
  const first = other.headsNow();
  // A content shorter than the file: the rest is blank, which JSON ignores.
  rmSync(witness.file);
  other.recordNow({ writer: 'gw-a', seq: 10_000_000, mac: 'ab'.repeat(32) });
  other.recordNow({ writer: 'gw-a', seq: 3, mac: 'ab'.repeat(32) });
  t.deepEqual(other.headsNow(), [{ writer: 'gw-a', seq: 3, mac: 'ab'.repeat(32) }]);
  t.regex(readFileSync(witness.file, 'utf8'), /^\[.*\]\n *$/s);
  t.is(first.length, 2);
});
