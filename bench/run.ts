import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { LoadClient, readSettings } from './load-client.js';
import { PROFILES, type ProfileName, printProfileReport, recordProfile } from './profile.js';
import { type Figure, printFigures, printHeading, printSummary } from './table.js';

/** A group of rows: a module whose `figures` measures them, each beside its floor from the same run. */
interface FigureGroup {
  readonly name: string;
  readonly module: () => Promise<{ figures(load: LoadClient): Promise<Figure[]> }>;
}

/**
 * The figure groups, in the order `npm run bench` runs them; registering one is one line here
 * (bench/README.md). The daemon hop runs once the gateway group's gateway is closed: by then its
 * memory audit log holds every record of the rows before, and collecting that heap would land in a
 * row of one request in flight.
 */
const GROUPS: readonly FigureGroup[] = [
  { name: 'gateway', module: () => import('./gateway.bench.js') },
  { name: 'daemon-hop', module: () => import('./daemon-hop.bench.js') },
  { name: 'failover', module: () => import('./failover.bench.js') },
  { name: 'audit-chain', module: () => import('./audit-chain.bench.js') },
  { name: 'postgres-store', module: () => import('./postgres-store.bench.js') },
  { name: 'key-list', module: () => import('./key-list.bench.js') },
  { name: 'batch', module: () => import('./batch.bench.js') },
  { name: 'health-probe', module: () => import('./health-probe.bench.js') },
  { name: 'audit-verify', module: () => import('./audit-verify-probes.bench.js') },
  { name: 'login-memory', module: () => import('./login-memory.bench.js') },
  { name: 'workload-login', module: () => import('./workload-login.bench.js') },
  { name: 'signing', module: () => import('./signing.bench.js') },
  { name: 'stream', module: () => import('./stream.bench.js') },
  { name: 'datakey', module: () => import('./datakey.bench.js') },
];

const USAGE = `npm run bench [-- options]
  --group <name>[,<name>]  only these figure groups: ${GROUPS.map((group) => group.name).join(', ')}
  --quick                  one-second runs, one round: checks that the groups run (figures not to compare)
  --seconds <n>            seconds per measured run (KEYGATE_BENCH_SECONDS, 3; a profile's load, 5)
  --profile <name>         a CPU profile of the gateway under one load: ${PROFILES.join(', ')}
  --out <file>             where --profile writes it (.bench/<name>.cpuprofile)
  --report <file>          the top frames of a .cpuprofile
  --help`;

const OPTIONS = {
  group: { type: 'string', multiple: true },
  quick: { type: 'boolean', default: false },
  seconds: { type: 'string' },
  profile: { type: 'string' },
  out: { type: 'string' },
  report: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** Stops at a wrong option or name, with the message and the usage, before anything starts. */
function refuse(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function readOptions() {
  try {
    const { values } = parseArgs({ options: OPTIONS });
    if (values.seconds !== undefined && !(Number(values.seconds) > 0))
      refuse(`--seconds ${values.seconds}: expected a number of seconds above 0`);
    return values;
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
}
const options = readOptions();

/** The groups `--group` names (all of them without it); an unknown name is refused before anything starts. */
function chosenGroups(names: readonly string[] | undefined): readonly FigureGroup[] {
  if (names === undefined) return GROUPS;
  const wanted = names.flatMap((name) => name.split(','));
  const unknown = wanted.filter((name) => !GROUPS.some((group) => group.name === name));
  if (unknown.length > 0) refuse(`no figure group ${unknown.join(', ')}; the groups: ${GROUPS.map((group) => group.name).join(', ')}`);
  return GROUPS.filter((group) => wanted.includes(group.name));
}

/** Every chosen group in turn, its rows printed as it answers them; a group that fails is reported and the next one runs. */
async function measureGroups(load: LoadClient, groups: readonly FigureGroup[]): Promise<boolean> {
  const settings = load.settings;
  process.stdout.write(
    `keygate bench: ${settings.seconds}s per run after a ${settings.warmUpSeconds}s warm-up, ${settings.connections} connections, ${settings.rounds} rounds, ` +
      `node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}${options.quick ? ' (quick: figures not to compare)' : ''}\n`,
  );
  printHeading();
  const all: Figure[] = [];
  let failed = false;
  for (const group of groups) {
    try {
      const figures = await (await group.module()).figures(load);
      printFigures(figures);
      all.push(...figures);
    } catch (error) {
      failed = true;
      process.stdout.write(`group ${group.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  printSummary(all);
  return !failed;
}

const started = Date.now();
let ok = true;
if (options.help) {
  process.stdout.write(`${USAGE}\n`);
} else if (options.report !== undefined) {
  try {
    printProfileReport(options.report);
  } catch (error) {
    refuse(`--report ${options.report}: ${error instanceof Error ? error.message : String(error)}`);
  }
} else {
  const profile = options.profile as ProfileName | undefined;
  if (profile !== undefined && !PROFILES.includes(profile)) refuse(`no profile ${profile}; the profiles: ${PROFILES.join(', ')}`);
  const groups = chosenGroups(options.group);
  const settings = readSettings(
    {
      ...process.env,
      ...(options.seconds !== undefined
        ? { KEYGATE_BENCH_SECONDS: options.seconds }
        : profile !== undefined
          ? { KEYGATE_BENCH_SECONDS: '5' }
          : {}),
    },
    options.quick,
  );
  const load = await LoadClient.start(settings);
  try {
    if (profile !== undefined) await recordProfile(load, profile, options.out ?? `.bench/${profile}.cpuprofile`);
    else ok = await measureGroups(load, groups);
  } finally {
    load.stop();
  }
  process.stdout.write(`\nbench took ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}
// Child processes and sockets of the runs are closed; nothing else should hold the process open.
process.exit(ok ? 0 : 1);
