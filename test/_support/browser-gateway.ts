import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { bundleForBrowser, CLIENT_ENTRY } from '../../scripts/bundle-client.js';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import type { GatewayConfigInput } from '../../src/app/config/config.js';
import { createGateway, type Gateway } from '../../src/app/create-gateway.js';
import { openConsole } from './console-page.js';
import { PASSWORDS, SEED } from './gateway.js';
import { type CallOptions, call, type Reply } from './http.js';

/** One request as it reached the gateway's socket (the browser decides what gets that far). */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly origin: string | undefined;
  readonly hasCookie: boolean;
  readonly hasProof: boolean;
  /** The `User-Agent` field: Chromium's, or the test's own fetch's. */
  readonly userAgent: string;
  status?: number;
  /** The answer's `X-Request-Id`, once sent (an audit record's `requestId`). */
  requestId?: string;
}

export interface BrowserGateway {
  readonly url: string;
  readonly gateway: Gateway;
  readonly logger: MemoryLogger;
  /** Every request the gateway received, in order, with its answer's status and request id once sent. */
  readonly seen: SeenRequest[];
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  login(user: keyof typeof PASSWORDS): Promise<string>;
  close(): Promise<void>;
}

/**
 * A gateway for a real browser: the seeded key server, the given CORS allowlist, and the system
 * clock (a browser signs `iat` with the wall clock, which a manual clock would not follow). Its
 * server records what reaches it, so a test can see preflights, and what the browser never sent.
 * It is closed by the test's teardown (`close()` may still be called: it runs once). `config` adds
 * settings (an audit store, say) to those, or replaces the key server (daemons).
 */
export async function startBrowserGateway(
  t: ExecutionContext,
  corsOrigins: readonly string[],
  config: GatewayConfigInput = {},
): Promise<BrowserGateway> {
  const logger = new MemoryLogger();
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin }, ...config, corsOrigins: [...corsOrigins] },
    { logger },
  );
  const seen: SeenRequest[] = [];
  const handle = gateway.app.callback();
  const server = createServer((req, res) => {
    const entry = record(req);
    seen.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
      const requestId = res.getHeader('x-request-id');
      if (typeof requestId === 'string') entry.requestId = requestId;
    });
    void handle(req, res);
  });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= closeAll());
  const closeAll = async () => {
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
    await gateway.close();
  };
  t.teardown(close);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    gateway,
    logger,
    seen,
    call: (method, path, options) => call(url, method, path, options),
    async login(user) {
      const reply = await call(url, 'POST', '/login', { body: { user, password: PASSWORDS[user] } });
      if (reply.status !== 200) throw new Error(`login ${user}: ${reply.status} ${reply.text}`);
      return reply.body.sessionId as string;
    },
    close,
  };
}

function record(req: IncomingMessage): SeenRequest {
  return {
    method: req.method ?? '',
    path: new URL(req.url ?? '/', 'http://gateway').pathname,
    origin: req.headers.origin,
    hasCookie: req.headers.cookie !== undefined,
    hasProof: req.headers.dpop !== undefined,
    userAgent: req.headers['user-agent'] ?? '',
  };
}

/** A browser gateway (`startBrowserGateway`) and the console open on it in a fresh browser context, closed by the test's teardown. */
export async function startConsole(
  t: ExecutionContext,
  browser: Browser,
  corsOrigins: readonly string[] = [],
  config: GatewayConfigInput = {},
) {
  const gw = await startBrowserGateway(t, corsOrigins, config);
  const page = await openConsole(browser, gw.url);
  t.teardown(() => page.context().close());
  return { gw, page };
}

/**
 * A page of the gateway's origin (served by the test, at `/<name>/index.html`) that has loaded the
 * browser bundle of keygate/client as `window.keygate`, in a browser context of its own closed by
 * the test's teardown: what a test needs to run the client in the page with `page.evaluate`.
 */
export async function clientPage(t: ExecutionContext, browser: Browser, gw: BrowserGateway, name: string): Promise<Page> {
  const page = `/${name}/index.html`;
  const script = `/${name}/client.js`;
  const html = `<!doctype html><meta charset="utf-8"><title>${name}</title>
<script type="module">import * as keygate from '${script}'; window.keygate = keygate; document.body.dataset.ready = 'true';</script>`;
  const bundle = await bundleForBrowser(CLIENT_ENTRY, { sourcemap: false });
  const context = await browser.newContext();
  t.teardown(() => context.close());
  await context.route(`${gw.url}${page}`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await context.route(`${gw.url}${script}`, (route) => route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: bundle }));
  const opened = await context.newPage();
  await opened.goto(`${gw.url}${page}`);
  await opened.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
  return opened;
}
