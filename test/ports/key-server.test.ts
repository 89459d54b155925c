import { randomBytes } from 'node:crypto';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { CONTRACT_SEED, keyServerContract } from './key-server.contract.js';
import { keyAliasesContract } from './key-server-aliases.contract.js';
import { keyVersionsContract } from './key-server-versions.contract.js';

const TOKEN_TTL_SECONDS = 600;
const MASTER_KEY = randomBytes(32).toString('base64');

for (const [name, dataDir] of [
  ['embedded', undefined],
  // The SQLite store behind its read cache, as a data directory gives it.
  ['embedded, SQLite file', () => scratchDir('keygate-ks-contract-')],
] as const) {
  const make = async () => {
    const clock = new ManualClock(Date.now());
    const { keyServer } = await startEmbeddedKeyServer(
      {
        kind: 'embedded',
        tokenTtlSeconds: TOKEN_TTL_SECONDS,
        seed: CONTRACT_SEED,
        ...(dataDir === undefined ? {} : { dataDir: dataDir(), masterKey: MASTER_KEY }),
      },
      clock,
      new CryptoRandom(),
    );
    return {
      keyServer,
      expireTokens: async () => clock.advance(TOKEN_TTL_SECONDS * 1000),
      close: () => keyServer.close(),
    };
  };
  keyServerContract(name, make);
  keyVersionsContract(name, make);
  keyAliasesContract(name, make);
}
