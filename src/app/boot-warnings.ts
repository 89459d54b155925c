import type { LogFields, Logger } from '../ports/logger.port.js';

/**
 * Passes every line on to `inner`, and keeps the warnings given while the gateway is being built, so
 * the CLI can repeat them on stderr before it says it listens (the log may write them later).
 */
export class BootWarningLogger implements Logger {
  private readonly warnings: string[] = [];
  private booting = true;

  constructor(private readonly inner: Logger) {}

  info(message: string, fields?: LogFields): void {
    this.inner.info(message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    if (this.booting) this.warnings.push(oneLine(message, fields));
    this.inner.warn(message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.inner.error(message, fields);
  }

  /** Stops keeping warnings and answers those given so far. */
  booted(): readonly string[] {
    this.booting = false;
    return [...this.warnings];
  }
}

/** `message key=value ...`: a log line's fields hold no secret (the Logger port's contract). */
function oneLine(message: string, fields: LogFields = {}): string {
  const shown = Object.entries(fields).map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${message}${shown.join('')}`.replace(/\s+/g, ' ');
}
