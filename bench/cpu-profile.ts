import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { LoadClient, Measured } from './load-client.js';
import type { LoadJob } from './load-generator.js';

/**
 * One warm-up second, then `job` measured while this process's CPU profile is recorded (the load
 * generator runs in a process of its own and is not in it), written to `out` as `node --cpu-prof`
 * would. Answers the run and this process's CPU microseconds per request: less swayed than
 * wall-clock rates by other work on a shared machine.
 */
export async function profiledRun(load: LoadClient, name: string, job: LoadJob, out: string): Promise<{ row: Measured; cpuUsPerRequest: number }> {
  await load.measure(`${name} warm-up`, { ...job, durationSeconds: 1 });
  const inspector = new Session();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
  await inspector.post('Profiler.start');
  const cpu = process.cpuUsage();
  const row = await load.measure(name, job);
  const { user, system } = process.cpuUsage(cpu);
  const { profile } = await inspector.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(profile));
  return { row, cpuUsPerRequest: (user + system) / (row.requestsPerSecond * job.durationSeconds) };
}
