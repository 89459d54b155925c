import { request } from 'node:https';

export interface HttpsReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON reply, which tests read by its shape
  readonly body: any;
  readonly text: string;
}

export interface HttpsCallOptions {
  readonly body?: unknown;
  /** Sent as is (no JSON encoding). */
  readonly raw?: string | Buffer;
  readonly headers?: Record<string, string>;
  /** The CA (PEM) to trust; the key server's own self-signed certificate will do. */
  readonly ca: string;
  /** The client certificate and key (PEM) for a daemon that requires mutual TLS. */
  readonly cert?: string;
  readonly key?: string;
}

/** One request to an HTTPS server (the key-server daemon), on its own connection. */
export function httpsCall(base: string, method: string, path: string, options: HttpsCallOptions): Promise<HttpsReply> {
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      { method, headers, ca: options.ca, cert: options.cert, key: options.key, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
