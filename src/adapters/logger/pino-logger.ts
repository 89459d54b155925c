import { pino, type Logger as Pino } from 'pino';
import type { LogFields, Logger } from '../../ports/logger.port.js';

/** JSON lines on stdout through pino. Fields named like secrets are censored as a second line of defence. */
export class PinoLogger implements Logger {
  readonly #pino: Pino;

  constructor(options: { level?: string; destination?: NodeJS.WritableStream } = {}) {
    this.#pino = pino(
      {
        level: options.level ?? 'info',
        base: { service: 'keygate' },
        redact: { paths: ['password', 'token', 'sessionId', '*.password', '*.token', '*.sessionId'], censor: '[redacted]' },
      },
      (options.destination ?? process.stdout) as never,
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
