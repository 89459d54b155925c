import { loadavg } from 'node:os';
import { CONNECTIONS, ROUNDS, SECONDS } from './bench-run.js';
import { printFigures } from './figure-table.js';
import { healthProbeFigures } from './health-probe.figures.js';
import { LoadClient } from './load-client.js';

/**
 * `tsx bench/health-probe.ts`: the two health-probe figures alone (`healthProbeFigures`), for the
 * choice docs/architecture.md records ("Auditing a request: one owner", health probes).
 */
process.stdout.write(
  `keygate health-probe bench: ${ROUNDS} rounds of ${SECONDS}s runs, ${CONNECTIONS} connections, node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}\n`,
);
const load = await LoadClient.start();
try {
  printFigures(await healthProbeFigures(load));
} finally {
  load.stop();
}
process.exit(0);
