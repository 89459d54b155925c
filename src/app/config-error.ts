/** A configuration that cannot start the gateway. The message is one line naming the setting. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
