import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { WrongCredentialError } from '../../domain/session/session.errors.js';
import { isRefusedAddress } from './refused-addresses.js';

export interface FetchLimits {
  /** Host names (or addresses) fetched over plain http, and from any address. */
  readonly plainHttpHosts: ReadonlySet<string>;
  /** The whole fetch, name resolution included. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxKeys: number;
  /** PEM certificates trusted beside the public roots (an in-cluster issuer's CA). */
  readonly ca?: string | undefined;
}

/** Resolves a host name to every address it has: the checks below look at each. */
export type Resolve = (host: string) => Promise<readonly { address: string; family: number }[]>;

const resolveAll: Resolve = (host) => lookup(host, { all: true, verbatim: true });

function refused(why: string): WrongCredentialError {
  return new WrongCredentialError(`jwks: ${why}`);
}

/** The bare host of a URL: `[::1]` as `::1`. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/**
 * The address to connect to (docs/spec.md §4.24 item 4): https only unless the host is listed; every
 * address the name resolves to is checked, and the connection goes to the one checked, so a name that
 * resolves elsewhere the second time (DNS rebinding) cannot move it.
 */
async function checkedAddress(url: URL, limits: FetchLimits, resolve: Resolve): Promise<{ address: string; family: number }> {
  const host = hostOf(url);
  const listed = limits.plainHttpHosts.has(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && listed)) throw refused(`${url.protocol} is not fetched from ${host}`);
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (addresses.length === 0) throw refused(`${host} does not resolve`);
  if (!listed && addresses.some((entry) => isRefusedAddress(entry.address))) throw refused(`${host} resolves to a refused address`);
  return addresses[0]!;
}

function readCapped(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      response.destroy();
      reject(refused(`the answer is larger than ${maxBytes} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(refused(`the answer is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', () => reject(refused('the answer broke off')));
  });
}

function parseKeySet(body: Buffer, maxKeys: number): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw refused('the answer is not JSON');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length > maxKeys) throw refused(`the answer is not a key set of at most ${maxKeys} keys`);
  return { keys };
}

/**
 * One GET of a key set: no redirect followed (a 3xx is a failure), at most `maxBytes`, within
 * `timeoutMs` whatever the server does. Every failure is WRONG_CREDENTIAL `jwks: ...`.
 */
export async function fetchKeySet(uri: string, limits: FetchLimits, resolve: Resolve = resolveAll): Promise<unknown> {
  const url = new URL(uri);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    const work = async () => {
      const target = await checkedAddress(url, limits, resolve);
      const pinned: LookupFunction = (_host, options, callback) =>
        options.all ? callback(null, [target]) : callback(null, target.address, target.family);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const response = await new Promise<IncomingMessage>((done, fail) => {
        // Extra roots are added to the public ones, never in their place.
        const trusted = limits.ca === undefined ? {} : { ca: [...rootCertificates, limits.ca] };
        const request = send(url, {
          method: 'GET',
          headers: { accept: 'application/json' },
          lookup: pinned,
          agent: false,
          signal: controller.signal,
          ...trusted,
        });
        request.on('response', done);
        request.on('error', fail);
        request.end();
      });
      if (response.statusCode !== 200) {
        response.destroy();
        throw refused(
          `answered ${response.statusCode}${response.statusCode! >= 300 && response.statusCode! < 400 ? ' (redirects are not followed)' : ''}`,
        );
      }
      return parseKeySet(await readCapped(response, limits.maxBytes), limits.maxKeys);
    };
    const aborted = new Promise<never>((_, fail) =>
      controller.signal.addEventListener('abort', () => fail(refused(`no answer within ${limits.timeoutMs} ms`)), { once: true }),
    );
    return await Promise.race([work(), aborted]);
  } catch (error) {
    if (error instanceof WrongCredentialError) throw error;
    throw refused('the key set could not be fetched');
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
