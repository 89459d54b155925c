import { MemorySessionStore } from '../../src/adapters/session-store/memory-session-store.js';
import { sessionStoreContract } from './session-store.contract.js';

sessionStoreContract('memory', async (clock) => new MemorySessionStore(clock));
