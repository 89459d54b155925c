import type { RandomSource } from '../../crypto/random-source.js';
import { srpCreateVerifier } from '../../crypto/srp/srp-verifier.js';
import { ConfigError } from '../config-error.js';
import type { EngineStore } from './engine-store.port.js';

/** How many random bytes a generated password holds (base64url: 24 characters), as the bootstrap's. */
const PASSWORD_BYTES = 18;

/**
 * `keygate keyserver reset-password`: gives `name` a new generated password on a store no key server
 * serves (the caller holds the store's writer lock), in one unit, and answers it, to be shown once.
 * As a password change does (docs/spec.md §4.20), it ends the principal's tokens and those a service
 * delegated as it. Its roles and whether it is disabled are left as they are.
 */
export async function resetPassword(
  store: EngineStore,
  name: string,
  random: RandomSource,
): Promise<{ password: string; disabled: boolean }> {
  return store.atomically(async () => {
    const row = await store.principalByName(name);
    if (row === undefined) throw new ConfigError(`no principal "${name}" in this store`);
    if (row.kind === 'group') throw new ConfigError(`"${name}" is a group: a group has no password`);
    const password = Buffer.from(random.bytes(PASSWORD_BYTES)).toString('base64url');
    await store.putPrincipal({ ...row, srp: srpCreateVerifier(row.name, password, random) });
    await store.deleteTokensOf(row.principalId);
    await store.deleteTokensActingFor(row.name);
    return { password, disabled: row.disabled };
  });
}
