import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { KeygateApiError } from '../../client/client-errors.js';
import { KeygateAdmin } from '../../client/keygate-admin.js';
import { KeygateClient } from '../../client/keygate-client.js';
import type { KeygateSession } from '../../client/keygate-session.js';

type Env = Readonly<Record<string, string | undefined>>;
/** A command's own flags: strings and booleans, each given once. */
type Options = Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string; readonly default?: string | boolean }>;

/** Parsed flags: the common ones typed, a command's own by name. */
export type Values = { readonly [flag: string]: string | boolean | undefined } & {
  readonly json: boolean;
  readonly help: boolean;
  readonly url?: string | undefined;
  readonly session?: string | undefined;
  readonly 'session-file'?: string | undefined;
};

/** What every operator command reads: where the gateway is, the session, and how to print. */
export interface CommandContext {
  readonly env: Env;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** One `keygate <command> [<sub>] ...`: its usage text and what it does (answers the exit status). */
export interface OperatorCommand {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(argv: readonly string[], ctx: CommandContext): Promise<number>;
}

/** The command line a command's body receives: the flags (common and its own) and the positionals. */
export interface Parsed {
  readonly values: Values;
  readonly positionals: readonly string[];
}

/**
 * An operator command: parses the common flags and `options`, answers `--help` with `usage`, and runs
 * `body` guarded (a usage error exits 2, a gateway refusal or an unreachable gateway 1). A number
 * `body` answers is the exit status; anything else is 0.
 */
export function defineCommand(
  spec: { readonly name: string; readonly summary: string; readonly usage: string; readonly options?: Options },
  body: (parsed: Parsed, ctx: CommandContext) => Promise<unknown>,
): OperatorCommand {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: spec.usage,
    async run(argv, ctx) {
      let parsed: Parsed;
      try {
        parsed = parse(argv, spec.options ?? {});
      } catch (error) {
        // The flags did not parse, so --json is looked for among the raw arguments.
        return guarded(ctx, spec.name, argv.includes('--json'), () => Promise.reject(error));
      }
      if (parsed.values.help) {
        ctx.out(spec.usage);
        return 0;
      }
      if (parsed.values.session !== undefined) ctx.err(`keygate: warning: ${SESSION_ON_ARGV}\n`);
      return guarded(ctx, spec.name, parsed.values.json, () => body(parsed, ctx));
    },
  };
}

/** A refusal of the command line itself (exit 2), printed as one line. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command that failed while running (a file it could not write, say): exit 1, one line, no usage. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

/** Flags every operator command accepts. */
export const COMMON_OPTIONS = {
  url: { type: 'string' },
  session: { type: 'string' },
  'session-file': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** A string flag's value (undefined when not given). */
export function text(values: Values, flag: string): string | undefined {
  const value = values[flag];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A command line is readable by every user of the machine (`ps`, /proc/PID/cmdline), and a session id
 * is a bearer credential for hours: the file and environment forms keep it out of there.
 */
export const SESSION_ON_ARGV =
  '--session puts the session id on the command line, visible to other users of this machine; use --session-file FILE, KEYGATE_SESSION_FILE or KEYGATE_SESSION instead';

export const COMMON_USAGE = `Common options:
  --url URL            the gateway (or KEYGATE_URL; default http://127.0.0.1:8080)
  --session-file FILE  a file holding the session id (or KEYGATE_SESSION_FILE, or KEYGATE_SESSION)
  --session ID         the session id itself: visible to other users on the command line (ps), so
                       warned about; prefer the file or environment forms
  --json               print JSON instead of text
  -h, --help           this help`;

/** Parses `argv` with the common flags and the command's own; unknown flags are a UsageError. */
export function parse(argv: readonly string[], options: Options): { values: Values; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...argv], options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

type Common = { url?: string | undefined; session?: string | undefined; 'session-file'?: string | undefined };

export function gatewayUrl(values: Common, env: Env): string {
  return values.url ?? env.KEYGATE_URL ?? 'http://127.0.0.1:8080';
}

export function client(values: Common, env: Env): KeygateClient {
  return new KeygateClient({ baseUrl: gatewayUrl(values, env) });
}

/** The session from --session, --session-file, KEYGATE_SESSION or KEYGATE_SESSION_FILE; never echoed. */
export function session(values: Common, env: Env): KeygateSession {
  const file = values['session-file'] ?? env.KEYGATE_SESSION_FILE;
  const id = values.session ?? (file === undefined ? env.KEYGATE_SESSION : readSecretFile(file, '--session-file'));
  if (id === undefined || id === '') throw new UsageError('no session: run "keygate login", then pass --session or set KEYGATE_SESSION');
  return client(values, env).resume(id);
}

export function admin(values: Common, env: Env): KeygateAdmin {
  return new KeygateAdmin(session(values, env));
}

/** A file's content, trimmed (a secret kept in a file: a password, a session id). */
export function readSecretFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new UsageError(`${what}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Prints `value` as JSON (--json) or as the command's text. */
export function print(ctx: CommandContext, json: boolean, value: unknown, text: () => string): void {
  ctx.out(json ? `${JSON.stringify(value, null, 2)}\n` : text());
}

/** Rows of aligned columns. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  return rows.map((row) => `${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`).join('');
}

/** The hint under a refusal of the command line: where its usage is. */
export function helpHint(command?: string): string {
  return `run "keygate ${command === undefined ? '' : `${command} `}--help" for the usage`;
}

/**
 * A refusal's one line, `STATUS CODE: detail`: the detail alone says nothing more when it is empty
 * or the code itself (a failed login's detail is its code), so then the code stands alone.
 */
export function refusalLine(error: KeygateApiError): string {
  const detail = error.detail.trim();
  return detail === '' || detail === error.code ? `${error.status} ${error.code}` : `${error.status} ${error.code}: ${detail}`;
}

/**
 * Runs a command's body: a usage error exits 2, a refusal by the gateway exits 1 with its code. Each
 * failure is one line on stderr (a JSON `{ error }` object with --json), a usage error followed by a
 * line naming `keygate COMMAND --help`, never the usage itself.
 */
export async function guarded(ctx: CommandContext, command: string, json: boolean, body: () => Promise<unknown>): Promise<number> {
  const fail = (error: Record<string, unknown>, line: string, hint?: string) =>
    ctx.err(
      json
        ? `${JSON.stringify({ error: hint === undefined ? error : { ...error, hint } })}\n`
        : `keygate: ${line}\n${hint === undefined ? '' : `${hint}\n`}`,
    );
  try {
    const status = await body();
    return typeof status === 'number' ? status : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      fail({ detail: error.message }, error.message, helpHint(command));
      return 2;
    }
    if (error instanceof CommandFailure) {
      fail({ detail: error.message }, error.message);
      return 1;
    }
    if (error instanceof KeygateApiError) {
      fail({ status: error.status, code: error.code, detail: error.detail }, refusalLine(error));
      return 1;
    }
    if (error instanceof TypeError && /fetch failed/.test(error.message)) {
      const reason = `cannot reach the gateway: ${(error.cause as Error | undefined)?.message ?? error.message}`;
      fail({ detail: reason }, reason);
      return 1;
    }
    throw error;
  }
}
