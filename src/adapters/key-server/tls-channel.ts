import type { TLSSocket } from 'node:tls';
import { KeygateError, KeyServerUnavailableError, outcomeUnknown } from '../../domain/errors/index.js';
import type { Secret } from '../../domain/secret/secret.js';
import { ALPN } from '../../keyserver/protocol/keyserver-protocol.js';
import type { WaitBudget } from '../request-budget/request-budget.js';
import { type TlsDialer, unavailable } from './tls-dialer.js';
import type { Exchange } from './tls-exchange.js';
import { FramedExchange } from './tls-framed-exchange.js';
import { HttpExchange } from './tls-http-exchange.js';
import { interpretReply } from './tls-reply.js';

/**
 * One gateway request's connection to the daemon (docs/spec.md §1.1, §12 item 11): opened validated, used for that
 * request's calls, closed after it. The calls travel as the handshake chose by ALPN: the framed
 * transport (one JSON line each way) when the daemon offers it, HTTP/1.1 otherwise. Should the daemon
 * drop the idle connection between two calls, the next call dials again, validated the same way.
 *
 * The timeout is the request's budget at the key server (`requestBudget`): the handshakes and every
 * call of every channel the request opens draw on it, so a daemon that stalls each step, or a request
 * that opens several channels (a pending token revocation, then a login), cannot stretch its wait to
 * a multiple of it. Time between calls (the gateway's own work) is not the key server's and is not
 * counted.
 *
 * A call that was handed to the daemon and got no answer may have been carried out: its failure says
 * `outcome: "unknown"`, as does any later failure of the same request. A failure before anything of
 * the request reached the daemon (refused, no handshake) says nothing of an outcome: nothing was done.
 */
export class TlsChannel {
  readonly #exchange: Exchange;
  readonly #budget: WaitBudget;

  private constructor(socket: TLSSocket, dialer: TlsDialer, url: URL, budget: WaitBudget) {
    const leftMs = () => Math.max(1, budget.leftMs());
    this.#exchange =
      socket.alpnProtocol === ALPN.framed ? new FramedExchange(socket, dialer, leftMs) : new HttpExchange(socket, dialer, url, leftMs);
    this.#budget = budget;
  }

  /**
   * A channel to the dialer's daemon, its handshake within what is left of the budget, or within
   * `capMs` when that is less (the share a gateway with several daemons gives each attempt).
   */
  static async open(dialer: TlsDialer, url: URL, budget: WaitBudget, capMs = Number.POSITIVE_INFINITY): Promise<TlsChannel> {
    const left = budget.leftMs();
    if (left <= 0) throw TlsChannel.spent(budget);
    const end = budget.startWait();
    try {
      return new TlsChannel(await dialer.open(Math.max(1, Math.min(left, capMs))), dialer, url, budget);
    } catch (error) {
      throw withOutcome(budget, unavailable(error));
    } finally {
      end();
    }
  }

  /** The failure of a request whose time at the key server ran out before it could dial. */
  static spent(budget: WaitBudget): KeygateError {
    return withOutcome(budget, outOfTime(budget));
  }

  /** One call: JSON in, JSON out. Throws the daemon's error by code, or UNAVAILABLE / FAILED. */
  call(method: 'GET' | 'POST', path: string, body?: unknown, token?: Secret): Promise<unknown> {
    const budget = this.#budget;
    const left = budget.leftMs();
    if (left <= 0) return Promise.reject(withOutcome(budget, outOfTime(budget)));
    const end = budget.startWait();
    budget.markReached();
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        end();
        outcome();
      };
      const deadline = setTimeout(() => {
        settle(() => reject(withOutcome(budget, outOfTime(budget))));
        this.#exchange.abort();
      }, left);
      this.#exchange
        .send(method, path, body, token)
        .then((answer) => interpretReply(answer.status, answer.json))
        .then(
          (value) => settle(() => resolve(value)),
          (error: unknown) => settle(() => reject(withOutcome(budget, error instanceof KeygateError ? error : unavailable(error)))),
        );
    });
  }

  /** Ends the TLS connection. Idempotent. */
  close(): void {
    this.#exchange.close();
  }
}

function outOfTime(budget: WaitBudget): KeyServerUnavailableError {
  return new KeyServerUnavailableError(`key server did not answer within ${budget.timeoutMs} ms`);
}

/** KEY_SERVER_UNAVAILABLE once a call of the request reached the daemon: its outcome is not known. */
function withOutcome(budget: WaitBudget, error: KeygateError): KeygateError {
  if (!budget.reached || error.code !== 'KEY_SERVER_UNAVAILABLE' || error.outcome !== undefined) return error;
  return outcomeUnknown(error);
}
