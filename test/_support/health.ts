import type { Reply } from './http.js';

/** Longest a health state may lag a dependency's change (HEALTH_MAX_AGE_MS), with room for a slow machine. */
const WAIT_MS = 5_000;
const STEP_MS = 50;

/**
 * Health probes answer from a background check at most a second old (api-surface.md: a probe does no
 * I/O), so a change nobody's request has met yet shows on the next round, not the next probe. Probes
 * until `expected` holds, boundedly, and answers the last reply (the caller asserts on it).
 */
export async function healthOnceChecked(probe: () => Promise<Reply>, expected: (reply: Reply) => boolean): Promise<Reply> {
  const deadline = Date.now() + WAIT_MS;
  let reply = await probe();
  while (!expected(reply) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, STEP_MS));
    reply = await probe();
  }
  return reply;
}
