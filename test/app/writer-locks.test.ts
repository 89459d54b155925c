import { join } from 'node:path';
import test from 'ava';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { createGateway } from '../../src/app/create-gateway.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const HOLDER = `held by pid ${process.pid} on host \\S+ since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z`;

const embedded = (dataDir: string) => ({ kind: 'embedded' as const, seed: SEED, adminPassword: PASSWORDS.admin, dataDir });

test('a gateway embedded on a data directory another gateway of the same process holds is refused, and boots once that one closed', async (t) => {
  const dataDir = scratchDir('keygate-embedded-writer-');
  const first = await startGateway(t, { keyServer: embedded(dataDir) });
  await t.throwsAsync(createGateway({ keyServer: embedded(dataDir) }, { logger: new MemoryLogger() }), {
    name: 'ConfigError',
    message: new RegExp(`^TE_GATEWAY_DATA_DIR: ${dataDir} is ${HOLDER}; one process writes a store at a time$`),
  });
  await first.close();
  const second = await startGateway(t, { keyServer: embedded(dataDir) });
  t.truthy(await second.login('alice'));
});

test('two gateways with data directories of their own on one SQLite audit database: the second is refused naming the holder', async (t) => {
  const file = join(scratchDir('keygate-audit-writer-'), 'audit.db');
  const gateway = (dataDir: string) => ({ keyServer: embedded(dataDir), audit: { kind: 'sqlite' as const, file } });
  await startGateway(t, gateway(scratchDir('keygate-audit-writer-a-')));
  await t.throwsAsync(createGateway(gateway(scratchDir('keygate-audit-writer-b-')), { logger: new MemoryLogger() }), {
    name: 'ConfigError',
    message: new RegExp(`^audit database: ${file} is ${HOLDER}; one process writes a store at a time$`),
  });
});
