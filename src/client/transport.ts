import { type Bytes, utf8 } from './base64.js';
import { apiErrorFrom, KeygateApiError, UNEXPECTED_RESPONSE } from './client-errors.js';
import { mintProof } from './mint-proof.js';
import type { ProofKey } from './proof-key.js';

/** Where the gateway is, and what the client may be given instead of the page's own globals. */
export interface TransportOptions {
  /** The gateway's base URL, e.g. `https://keys.example.com` (a path prefix is kept). */
  readonly baseUrl: string | URL;
  /** Defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /** The clock proofs take `iat` from, in ms since the epoch; defaults to Date.now. */
  readonly now?: () => number;
}

/** The credential a request carries: the session id, and the proof key when the session is bound. */
export interface Credential {
  readonly sessionId: string;
  readonly proofKey?: ProofKey | undefined;
}

export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path under the base URL, e.g. `/api/session`. */
  readonly path: string;
  readonly body?: unknown;
  readonly credential?: Credential | undefined;
  /** A sign-in proven by this key (docs/spec.md §4.24 item 2): a proof without `ath`, as no session exists yet. */
  readonly signInProof?: ProofKey | undefined;
  /** Further request headers (`Idempotency-Key`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Sends one /api request and answers its JSON (undefined for 204), or throws the typed error.
 * The body is serialised once and those exact bytes are both sent and hashed into `bth`; a bound
 * session's request gets a proof minted for it alone (docs/spec.md §5.1: no route is exempt).
 * No cookies, ever (docs/spec.md §8 item 6): `credentials: 'omit'`. A network failure, including a browser
 * refusing a cross-origin answer, is the fetch's own TypeError, passed on as is.
 */
export async function send<T>(options: TransportOptions, request: ApiRequest): Promise<T> {
  const url = requestUrl(options.baseUrl, request.path);
  const body = request.body === undefined ? undefined : utf8(JSON.stringify(request.body));
  const headers = await requestHeaders(options, request, url, body);
  const response = await (options.fetch ?? globalThis.fetch)(url, {
    method: request.method,
    headers,
    ...(body === undefined ? {} : { body }),
    credentials: 'omit',
    redirect: 'error',
  });
  const text = await response.text();
  const parsed = parseJson(text);
  if (!response.ok) throw apiErrorFrom(response.status, parsed, response.headers);
  if (parsed === undefined && response.status !== 204) {
    throw new KeygateApiError(response.status, { code: UNEXPECTED_RESPONSE, detail: `HTTP ${response.status} without a JSON body` });
  }
  return parsed as T;
}

async function requestHeaders(options: TransportOptions, request: ApiRequest, url: URL, body: Bytes | undefined): Promise<Headers> {
  const headers = new Headers({ ...request.headers, Accept: 'application/json' });
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  const credential = request.credential;
  if (request.signInProof !== undefined) {
    const proof = await mintProof(
      request.signInProof,
      { method: request.method, url, credential: undefined, body },
      (options.now ?? Date.now)(),
    );
    headers.set('DPoP', proof);
  }
  if (credential === undefined) return headers;
  headers.set('Authorization', `Bearer ${credential.sessionId}`);
  if (credential.proofKey !== undefined) {
    const proof = await mintProof(
      credential.proofKey,
      { method: request.method, url, credential: credential.sessionId, body },
      (options.now ?? Date.now)(),
    );
    headers.set('DPoP', proof);
  }
  return headers;
}

/** `baseUrl` + `path`, keeping a path prefix of the base (a same-origin proxy mount). */
export function requestUrl(baseUrl: string | URL, path: string): URL {
  const base = parseBaseUrl(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return new URL(`${base.origin}${prefix}${path}`);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The gateway's base URL: an absolute http(s) URL. */
export function parseBaseUrl(baseUrl: string | URL): URL {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`the gateway URL must be http or https, not ${url.protocol}`);
  return url;
}
