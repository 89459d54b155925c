import { loadavg } from 'node:os';
import { daemonHopFigure } from './daemon-hop.figures.js';
import { printFigures } from './figure-table.js';
import { LoadClient } from './load-client.js';

/** The daemon-hop row alone (`tsx bench/daemon-hop.ts`): the TLS hop beside its floor, in one run. */
process.stdout.write(`load average ${loadavg()[0]!.toFixed(2)}\n`);
const load = await LoadClient.start();
try {
  printFigures([await daemonHopFigure(load)]);
} finally {
  load.stop();
}
process.exit(0);
