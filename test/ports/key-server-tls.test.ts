import { keyServerContract } from './key-server.contract.js';
import { tlsContractTargets } from './tls-contract-targets.js';

/** The KeyServer contract against the tls adapter and real `keygate keyserver` processes. */
for (const [name, make] of await tlsContractTargets()) keyServerContract(name, make);
