import { keyAliasesContract } from './key-server-aliases.contract.js';
import { keyVersionsContract } from './key-server-versions.contract.js';
import { tlsContractTargets } from './tls-contract-targets.js';

/**
 * The key-versions half of the KeyServer contract (rotation, minimum version, cryptography by version,
 * rewrap, batches) and its aliases (docs/spec.md §4.23) against the tls adapter, on daemons of its own
 * so it shares none with the rest.
 */
for (const [name, make] of await tlsContractTargets()) {
  keyVersionsContract(name, make);
  keyAliasesContract(name, make);
}
