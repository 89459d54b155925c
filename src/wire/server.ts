/** A key-server parameter (docs/spec.md §4.13): its current value, type and meaning. */
export interface ServerParameter {
  readonly name: string;
  readonly value: number | boolean | string;
  readonly type: 'integer' | 'boolean' | 'string';
  readonly description: string;
}

/** The names of the key server's tunable parameters. */
export const SERVER_PARAMETER_NAMES = ['tokenTtlSeconds', 'loginHandshakeSeconds', 'maxPendingLogins'] as const;
export type ServerParameterName = (typeof SERVER_PARAMETER_NAMES)[number];

/** The key server's own version (operation 43; the gateway adds its own and the API's). */
export interface KeyServerVersion {
  readonly keyServer: string;
}
