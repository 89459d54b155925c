import type { LogFields, Logger } from '../../ports/logger.port.js';

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields: LogFields;
}

/** Keeps log lines in memory, for tests that assert what was (or was not) logged. */
export class MemoryLogger implements Logger {
  readonly lines: LogLine[] = [];

  info(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'info', message, fields });
  }

  warn(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'warn', message, fields });
  }

  error(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'error', message, fields });
  }
}
