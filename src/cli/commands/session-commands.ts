import type { HealthView } from '../../client/api-types.js';
import { COMMON_USAGE, client, defineCommand, gatewayUrl, print, readSecretFile, session, text, UsageError } from './command.js';
import { readPassword } from './password-prompt.js';

const LOGIN_USAGE = `Usage: keygate login --user NAME [--password-file FILE] [options]
       keygate login --jwt-file FILE [--issuer NAME] [options]
  Signs in and prints the session id (text: the bare id, for KEYGATE_SESSION=$(keygate login ...)).
  --jwt-file: a workload's sign-in with the token its platform gives it (a Kubernetes service-account
  token, a CI OIDC token), read from FILE each time (docs/spec.md §4.24); the session is unbound.
  The password comes from --password-file, else KEYGATE_PASSWORD_FILE, else KEYGATE_PASSWORD, else
  standard input: on a terminal a "Password: " prompt on stderr (not echoed), otherwise its first
  line. It is never taken on the command line.
${COMMON_USAGE}
`;

export const loginCommand = defineCommand(
  {
    name: 'login',
    summary: 'sign in and print a session id',
    usage: LOGIN_USAGE,
    options: { user: { type: 'string' }, 'password-file': { type: 'string' }, 'jwt-file': { type: 'string' }, issuer: { type: 'string' } },
  },
  async ({ values }, ctx) => {
    const jwtFile = text(values, 'jwt-file');
    if (jwtFile !== undefined) {
      const issuer = text(values, 'issuer');
      const signedIn = await client(values, ctx.env).loginWithJwt(
        readSecretFile(jwtFile, '--jwt-file'),
        issuer === undefined ? {} : { issuer },
      );
      return print(ctx, values.json, { sessionId: signedIn.sessionId, ...signedIn.view }, () => `${signedIn.sessionId}\n`);
    }
    const user = text(values, 'user');
    if (user === undefined) throw new UsageError('--user is required');
    const file = text(values, 'password-file') ?? ctx.env.KEYGATE_PASSWORD_FILE;
    const password = file === undefined ? (ctx.env.KEYGATE_PASSWORD ?? (await readPassword())) : readSecretFile(file, '--password-file');
    if (password === '') throw new UsageError('no password: use --password-file FILE or KEYGATE_PASSWORD_FILE, or type it when prompted');
    const signedIn = await client(values, ctx.env).login(user, password);
    print(ctx, values.json, { sessionId: signedIn.sessionId, ...signedIn.view }, () => `${signedIn.sessionId}\n`);
  },
);

const HEALTH_USAGE = `Usage: keygate health [options]
  The gateway's health: ok, the checks, the key server's fingerprint. Exits 1 when not ok.
${COMMON_USAGE}
`;

export const healthCommand = defineCommand(
  { name: 'health', summary: "the gateway's health (exit 1 when not ok)", usage: HEALTH_USAGE },
  async ({ values }, ctx) => {
    // A 503 carries the same body as a 200 (the failed checks): an answer to print, not a refusal.
    const response = await fetch(new URL('api/health', withSlash(gatewayUrl(values, ctx.env))), {
      headers: { accept: 'application/json' },
    });
    const health = (await response.json()) as HealthView;
    const checks = Object.entries(health.checks ?? {});
    print(ctx, values.json, health, () =>
      [
        `ok: ${health.ok}`,
        `version: ${health.version ?? ''}`,
        `ksFingerprint: ${health.ksFingerprint}`,
        ...checks.map(([name, state]) => `${name}: ${String(state)}`),
      ]
        .join('\n')
        .concat('\n'),
    );
    return health.ok === true ? 0 : 1;
  },
);

const WHOAMI_USAGE = `Usage: keygate whoami [options]
  The session's view: who it belongs to, its kind, when it expires.
${COMMON_USAGE}
`;

export const whoamiCommand = defineCommand(
  { name: 'whoami', summary: "the session's principal and expiry", usage: WHOAMI_USAGE },
  async ({ values }, ctx) => {
    const view = await session(values, ctx.env).inspect();
    print(ctx, values.json, view, () => `${view.user} (${view.kind}) expires ${view.expiresAt ?? 'never'}\n`);
  },
);

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
