import { join } from 'node:path';
import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { PostgresAuditLog } from '../../src/adapters/audit-log/postgres-audit-log.js';
import { SqliteAuditLog } from '../../src/adapters/audit-log/sqlite-audit-log.js';
import { auditTestKeys, testChain } from '../_support/audit-chain.js';
import { startTestPostgres } from '../_support/postgres.js';

const keys = auditTestKeys();

import { scratchDir } from '../_support/scratch-dirs.js';
import { auditLogContract } from './audit-log.contract.js';

const dir = scratchDir('keygate-audit-');
let files = 0;
let schemas = 0;

auditLogContract('memory', async () => {
  const log = new MemoryAuditLog();
  return { log, breakStore: () => log.close() };
});

auditLogContract('sqlite', async () => {
  const log = SqliteAuditLog.open({ file: join(dir, `audit-${files++}.db`) });
  return { log, breakStore: () => log.close() };
});

// The same contract with every entry chained (as a gateway opens its store), checkpoints often.
auditLogContract(
  'chained memory',
  async () => {
    const log = new MemoryAuditLog({ chain: testChain('memory-writer', keys, { checkpointEvery: 3 }) });
    return { log, breakStore: () => log.close() };
  },
  { chainKeys: keys },
);

auditLogContract(
  'chained sqlite',
  async () => {
    const log = SqliteAuditLog.open({
      file: join(dir, `audit-${files++}.db`),
      chain: testChain('sqlite-writer', keys, { checkpointEvery: 3 }),
    });
    return { log, breakStore: () => log.close() };
  },
  { chainKeys: keys },
);

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

auditLogContract(
  'postgres',
  async () => {
    // Generous bounds: the contract is about behaviour, and a loaded CI machine is slow to connect.
    const log = await PostgresAuditLog.open({
      url: postgres.url!,
      schema: `contract_${process.pid}_${schemas++}`,
      poolSize: 2,
      connectTimeoutMs: 30_000,
      statementTimeoutMs: 30_000,
    });
    return { log, breakStore: () => log.close() };
  },
  { skip: postgres.reason, propertyRuns: 15 },
);

auditLogContract(
  'chained postgres',
  async () => {
    const log = await PostgresAuditLog.open({
      url: postgres.url!,
      schema: `contract_${process.pid}_${schemas++}`,
      poolSize: 2,
      connectTimeoutMs: 30_000,
      statementTimeoutMs: 30_000,
      chain: testChain('postgres-writer', keys, { checkpointEvery: 3 }),
    });
    return { log, breakStore: () => log.close() };
  },
  { skip: postgres.reason, propertyRuns: 10, chainKeys: keys },
);
