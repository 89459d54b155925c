import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { parseGatewayConfig } from '../../src/app/config.js';
import { ALL_TOKENS, buildContainer } from '../../src/app/container.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';

test('the container resolves every token, each to one shared instance', async (t) => {
  const config = parseGatewayConfig({});
  const clock = new ManualClock();
  const { keyServer } = await startEmbeddedKeyServer({ kind: 'embedded' }, clock, new CryptoRandom());
  const container = buildContainer(config, keyServer, { clock, logger: new MemoryLogger() });
  for (const id of ALL_TOKENS) {
    const value = container.get(id);
    t.truthy(value, id.description);
    t.is(container.get(id), value, `${id.description} is a singleton`);
  }
  await keyServer.close();
});
