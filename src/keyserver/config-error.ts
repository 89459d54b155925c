/**
 * A configuration that cannot start the gateway or the key server. The message is one line naming
 * the setting (a variable or a flag).
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
