import { type Logger as Pino, pino } from 'pino';
import type { LogFields, Logger } from '../../ports/logger.port.js';
import { turnBatchedDestination } from './turn-batched-destination.js';

/** Field names censored wherever they appear at the top of a line or one level down. */
const SECRET_FIELDS: readonly string[] = ['password', 'token', 'sessionId'];
const CENSOR = '[redacted]';

/**
 * JSON lines through pino, on stdout by default (`turnBatchedDestination`: the lines of one event-loop
 * turn in one write). Fields named like secrets are censored as a second line of defence.
 */
export class PinoLogger implements Logger {
  readonly #pino: Pino;

  constructor(options: { level?: string; destination?: NodeJS.WritableStream } = {}) {
    this.#pino = pino(
      {
        level: options.level ?? 'info',
        base: { service: 'keygate' },
        // The censoring of pino's `redact` paths `password`, `*.password` (and `token`, `sessionId`),
        // done in one pass that copies nothing unless a name is found: `redact` with its wildcard
        // paths cost about 4 us on every line, the access log's included, which never names one.
        formatters: { log: censorSecrets },
      },
      (options.destination ?? turnBatchedDestination(1)) as never,
    );
  }

  info(message: string, fields: LogFields = {}): void {
    this.#pino.info(fields, message);
  }

  warn(message: string, fields: LogFields = {}): void {
    this.#pino.warn(fields, message);
  }

  error(message: string, fields: LogFields = {}): void {
    this.#pino.error(fields, message);
  }
}

/**
 * `fields` with every member named like a secret, at the top or inside a top-level object, replaced
 * by `[redacted]`; the caller's objects are never changed (a copy is made only when one is found).
 */
export function censorSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  let out = fields;
  for (const key in fields) {
    const value = fields[key];
    if (SECRET_FIELDS.includes(key)) {
      if (out === fields) out = { ...fields };
      out[key] = CENSOR;
    } else if (typeof value === 'object' && value !== null && SECRET_FIELDS.some((name) => name in value)) {
      const inner = (Array.isArray(value) ? Object.assign([], value) : { ...value }) as Record<string, unknown>;
      for (const name of SECRET_FIELDS) if (name in inner) inner[name] = CENSOR;
      if (out === fields) out = { ...fields };
      out[key] = inner;
    }
  }
  return out;
}
