import test from 'ava';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { createGateway } from '../../src/app/create-gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const IN_MEMORY = /embedded key server in memory.*a restart forgets every principal, key and grant/;

test('createGateway without a dataDir warns through its logger that the key server is in memory', async (t) => {
  const logger = new MemoryLogger();
  const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: 'memory-admin' } }, { logger });
  t.teardown(() => gateway.close());
  const warnings = logger.lines.filter((line) => line.level === 'warn' && IN_MEMORY.test(line.message));
  t.is(warnings.length, 1, JSON.stringify(logger.lines));
  t.regex(warnings[0]!.message, /dataDir/, 'names the setting that keeps the keys');
  t.true(gateway.bootWarnings.some((warning) => IN_MEMORY.test(warning)));
});

test('createGateway with a dataDir keeps its key server on disk and does not warn about memory', async (t) => {
  const logger = new MemoryLogger();
  const dataDir = scratchDir('keygate-embedded-durable-');
  const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: 'durable-admin', dataDir } }, { logger });
  t.teardown(() => gateway.close());
  t.false(
    logger.lines.some((line) => IN_MEMORY.test(line.message)),
    JSON.stringify(logger.lines),
  );
  t.false(gateway.bootWarnings.some((warning) => IN_MEMORY.test(warning)));
});
