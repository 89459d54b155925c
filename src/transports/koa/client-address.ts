import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** `::ffff:192.0.2.1` (an IPv4 peer on a dual-stack socket) as `192.0.2.1`. */
function plain(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

function trustList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.trim().split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(plain(address), type);
    else list.addSubnet(plain(address), Number(prefix), type);
  }
  return list;
}

/**
 * The client address (issue 13 §1): the socket's peer; `X-Forwarded-For` only when that peer is a
 * trusted proxy, and then the rightmost entry that is not itself a trusted proxy (entries to its left
 * were written by the client and prove nothing). `requestStep` resolves it once per request.
 */
export function clientAddressOf(trustedProxies: readonly string[]): (req: IncomingMessage) => string {
  const trusted = trustList(trustedProxies);
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
  return function resolveClientAddress(req) {
    let address = plain(req.socket.remoteAddress ?? '');
    if (trustedProxies.length > 0 && isTrusted(address)) {
      const forwarded = req.headers['x-forwarded-for'];
      const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
        .split(',')
        .map(plain)
        .filter((hop) => hop !== '');
      while (hops.length > 0 && isTrusted(address)) {
        const hop = hops.pop()!;
        if (isIP(hop) === 0) break;
        address = hop;
      }
    }
    return address || 'unknown';
  };
}
