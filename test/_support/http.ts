/** The answer to one HTTP call, with the body parsed when it is JSON. */
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON reply, which tests read by its shape
  readonly body: any;
  readonly text: string;
}

export interface CallOptions {
  readonly body?: unknown;
  /** Sent as is (no JSON encoding). */
  readonly raw?: string | Buffer;
  readonly headers?: Record<string, string>;
}

/** One request on a real socket through fetch. */
export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
