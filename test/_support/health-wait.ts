import type { Reply } from './http.js';

interface HealthCaller {
  call(method: string, path: string): Promise<Reply>;
}

/**
 * Asks `path` until its `ok` is `ok`, for at most `timeoutMs`, and answers the last reply. The audit
 * store's state comes from a background write probe that runs every second in real time (the gateway
 * never does I/O in a probe), so a test that changes the disk waits for one round, briefly and boundedly.
 */
export async function healthUntil(gw: HealthCaller, ok: boolean, { path = '/api/health', timeoutMs = 5_000 } = {}): Promise<Reply> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await gw.call('GET', path);
    if (reply.body.ok === ok || Date.now() >= deadline) return reply;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
