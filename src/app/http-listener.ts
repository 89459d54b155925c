import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError } from '../transports/koa/http/client-error.js';
import { CONFIG_DEFAULTS } from './config/config.js';

/** An HTTP server that can stop gracefully. */
export interface HttpListener {
  readonly server: Server;
  readonly url: string;
  /**
   * Stops accepting connections, lets the requests in flight finish for at most `graceMs`, then cuts
   * whatever is still open. Resolves once the server is closed, with the number of requests cut.
   */
  drain(graceMs: number): Promise<number>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** How long a client may take, and how many connections may be open at once. */
export interface EdgeLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number;
  /** How often Node checks the two request timeouts (a slow client lives up to timeout + this). */
  readonly connectionsCheckingIntervalMs: number;
}

/** A listener bound to its port before the gateway behind it is built; `serve` hands it the handler. */
export interface BoundHttpListener extends HttpListener {
  /**
   * Starts answering with `handler`: the requests that came while the gateway was being built, held
   * until now, first. Called once.
   */
  serve(handler: Handler): void;
}

/**
 * Serves `handler` on `port`/`host`. While draining, every response still to be written says
 * `Connection: close`, and a keep-alive connection is closed as soon as its request is answered, so
 * an idle client cannot hold the shutdown open.
 */
export async function listenHttp(
  handler: Handler,
  port: number,
  host: string,
  limits: EdgeLimits = CONFIG_DEFAULTS.http,
): Promise<HttpListener> {
  const listener = await bindHttp(port, host, limits);
  listener.serve(handler);
  return listener;
}

/**
 * Binds `port`/`host` first, before anything else of the gateway is opened or created: a port in use
 * stops the boot while nothing is written yet (no store, no generated password that could never be
 * shown). A request that comes before `serve` waits for it, as it would in the kernel's backlog.
 */
export async function bindHttp(port: number, host: string, limits: EdgeLimits = CONFIG_DEFAULTS.http): Promise<BoundHttpListener> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let handler: Handler | undefined;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(limits.connectionsCheckingIntervalMs, limits.headersTimeoutMs),
    },
    (req, res) => {
      inFlight.add(res);
      if (draining) res.setHeader('Connection', 'close');
      // A response closes once: one listener made per server, not a closure per request.
      res.on('close', settled);
      if (handler === undefined) waiting.push([req, res]);
      else handler(req, res);
    },
  );
  function settled(this: ServerResponse): void {
    inFlight.delete(this);
    if (draining) setImmediate(() => server.closeIdleConnections());
  }
  // Over the cap, Node closes the new connection before reading a byte of it.
  server.maxConnections = limits.maxConnections;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // A request Node refuses before the app sees it (headers over 16 KiB, garbage) still gets a JSON body.
  server.on('clientError', answerClientError);
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => (server.removeListener('error', fail), ready()));
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    serve(given) {
      handler = given;
      for (const [req, res] of waiting.splice(0)) if (!res.writableEnded && !res.destroyed) given(req, res);
    },
    async drain(graceMs) {
      if (!server.listening) return 0;
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeIdleConnections();
      let cut = 0;
      const deadline = setTimeout(() => {
        cut = inFlight.size;
        server.closeAllConnections();
      }, graceMs);
      await closed;
      clearTimeout(deadline);
      return cut;
    },
  };
}
