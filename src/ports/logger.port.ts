import { token } from './token.js';

/** Structured fields of a log line. Never a password, token, session id, proof or key material. */
export type LogFields = Readonly<Record<string, unknown>>;

/** Server-side logging. */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const LOGGER = token<Logger>('Logger');
