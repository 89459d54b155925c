import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoAssets } from './bundle-client.js';

export interface DemoServer {
  /** The page's URL (its origin is what the gateway's CORS allowlist must name). */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Headers of every answer: a strict content policy (scripts and styles from the page's origin only;
 * connections anywhere, since the gateway is on another origin by design), no referrer, no framing.
 */
const HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src http: https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/**
 * Serves the demo page (index.html, demo.css and the bundled demo.js) on its own origin. The page
 * talks to `gatewayUrl` cross-origin; `?gateway=` in the page URL overrides it.
 */
export async function startDemoServer(options: { gatewayUrl: string; port?: number; host?: string }): Promise<DemoServer> {
  const assets = await demoAssets(options.gatewayUrl);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://demo').pathname;
    const asset = assets[path === '/' ? '/index.html' : path];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || asset === undefined) {
      res.writeHead(404, { ...HEADERS, 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { ...HEADERS, 'Content-Type': asset.type });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
