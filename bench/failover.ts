import { loadavg } from 'node:os';
import { failoverFigure } from './failover.figures.js';
import { printFigures } from './figure-table.js';

/** The failover row alone (`tsx bench/failover.ts`): two daemons, one killed under logins. */
process.stdout.write(`load average ${loadavg()[0]!.toFixed(2)}\n`);
printFigures([await failoverFigure()]);
process.exit(0);
