import { loadavg } from 'node:os';
import { benchPostgresStore } from './postgres-store.bench.js';

/** The key-server store rows alone (`tsx bench/postgres-store.ts`): a daemon on PostgreSQL beside one on SQLite. */
process.stdout.write(`load average ${loadavg()[0]!.toFixed(2)}\n`);
await benchPostgresStore();
process.exit(0);
