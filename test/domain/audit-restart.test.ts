import test from 'ava';
import { chainRestartRecord, currentChainWriter, nextChainWriter, parseChainRestart } from '../../src/domain/audit/audit-restart.js';

test("a gateway's current chain is the newest its witness knows, and the next one follows it", (t) => {
  t.is(currentChainWriter('gw-a', []), 'gw-a');
  t.is(currentChainWriter('gw-a', ['gw-a', 'gw-b~7', 'gw-a~3', 'gw-a~2', 'gw-a~x', 'gw-ab~9']), 'gw-a~3');
  t.is(nextChainWriter('gw-a', ['gw-a']), 'gw-a~2');
  t.is(nextChainWriter('gw-a', ['gw-a', 'gw-a~3']), 'gw-a~4');
});

test('the restart entry records the lost chain in its object, and reads back', (t) => {
  const restart = { writer: 'gw-a', storedSeq: 4, witnessedSeq: 8, witnessedMac: 'ab'.repeat(32) };
  const record = chainRestartRecord('0'.repeat(32), 1000, restart);
  t.like(record, { operation: 'audit.chainRestarted', outcome: 'ok' });
  t.deepEqual(parseChainRestart(record.object), restart);
  t.is(parseChainRestart('{"writer":"gw-a"}'), undefined);
  t.is(parseChainRestart('not json'), undefined);
});
