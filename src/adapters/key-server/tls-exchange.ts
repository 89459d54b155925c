import type { Secret } from '../../domain/secret/secret.js';

/** One call's answer: its status and its body as JSON (undefined when the body is not JSON). */
export interface Answer {
  readonly status: number;
  readonly json: unknown;
}

/**
 * How calls travel on the channel's connection: HTTP/1.1 or the framed transport, as the handshake
 * chose. A connection dialed again (the daemon closed the first) gets what is left of the channel's
 * budget, `leftMs()`, which each exchange is given when it is made.
 */
export interface Exchange {
  send(method: 'GET' | 'POST', path: string, body: unknown, token: Secret | undefined): Promise<Answer>;
  /** Abandons the call in flight (its time is up): its connection is closed. */
  abort(): void;
  close(): void;
}
