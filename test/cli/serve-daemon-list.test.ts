import { spawnSync } from 'node:child_process';
import test from 'ava';

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const PIN_A = 'ab'.repeat(32);
const PIN_B = 'cd'.repeat(32);

/** `keygate serve` with `env` that must refuse to start: its exit status and its stderr. */
function serveRefused(env: Record<string, string>): { status: number | null; stderr: string } {
  const child = spawnSync(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, TE_GATEWAY_HOST: '127.0.0.1', TE_GATEWAY_PORT: '0', TE_GATEWAY_LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 45_000,
  });
  return { status: child.status, stderr: child.stderr };
}

const REFUSED = [
  [
    'one pin for two daemons',
    { TE_GATEWAY_KEYSERVER_URL: 'https://127.0.0.1:7001,https://127.0.0.1:7002', TE_GATEWAY_KEYSERVER_FINGERPRINT: PIN_A },
    /^keygate: TE_GATEWAY_KEYSERVER_FINGERPRINT: 1 fingerprint for 2 daemon URLs: give one per URL, in the same order, got "(ab){32}"$/,
  ],
  [
    'two pins for one daemon',
    { TE_GATEWAY_KEYSERVER_URL: 'https://127.0.0.1:7001', TE_GATEWAY_KEYSERVER_FINGERPRINT: `${PIN_A},${PIN_B}` },
    /^keygate: TE_GATEWAY_KEYSERVER_FINGERPRINT: 2 fingerprints for 1 daemon URL: give one per URL, in the same order, got "/,
  ],
  [
    'a bad second URL',
    { TE_GATEWAY_KEYSERVER_URL: 'https://127.0.0.1:7001,http://127.0.0.1:7002', TE_GATEWAY_KEYSERVER_FINGERPRINT: `${PIN_A},${PIN_B}` },
    /^keygate: TE_GATEWAY_KEYSERVER_URL: entry 2 of 2: expected https:\/\/host\[:port\], got "https:\/\/127.0.0.1:7001,http:\/\/127.0.0.1:7002"$/,
  ],
  [
    'a bad second pin',
    { TE_GATEWAY_KEYSERVER_URL: 'https://127.0.0.1:7001,https://127.0.0.1:7002', TE_GATEWAY_KEYSERVER_FINGERPRINT: `${PIN_A},abc` },
    /^keygate: TE_GATEWAY_KEYSERVER_FINGERPRINT: entry 2 of 2: expected 64 hex digits/,
  ],
  [
    'a daemon listed twice',
    { TE_GATEWAY_KEYSERVER_URL: 'https://127.0.0.1:7001,https://127.0.0.1:7001/', TE_GATEWAY_KEYSERVER_FINGERPRINT: `${PIN_A},${PIN_B}` },
    /^keygate: TE_GATEWAY_KEYSERVER_URL: lists a daemon twice/,
  ],
] as const;

for (const [what, env, message] of REFUSED) {
  test(`keygate serve refuses ${what} with one line naming the variable, exit 2`, (t) => {
    const result = serveRefused(env);
    t.is(result.status, 2, result.stderr);
    const lines = result.stderr.trim().split('\n');
    t.is(lines.length, 1, result.stderr);
    t.regex(lines[0]!, message);
  });
}
