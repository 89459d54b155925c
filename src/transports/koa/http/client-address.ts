import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

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

/** The socket's peer as the access log names it (`peer`): the proxy's address behind a proxy. */
export function peerAddress(req: IncomingMessage): string {
  return plain(req.socket.remoteAddress ?? '') || 'unknown';
}

/**
 * The client address (docs/spec.md §10 item 1): the socket's peer; `X-Forwarded-For` only when that peer is a
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

/**
 * The request step's second part: the key a request's per-address limits count under
 * (`clientAddressKey` of `clientAddressOf`), resolved once per request.
 */
export function clientKeyOf(trustedProxies: readonly string[], ipv6PrefixLength: number): (req: IncomingMessage) => string {
  const clientAddress = clientAddressOf(trustedProxies);
  return function resolveClientKey(req) {
    return clientAddressKey(clientAddress(req), ipv6PrefixLength);
  };
}

/** The prefix per-address limits group an IPv6 client by when none is configured. */
export const DEFAULT_IPV6_PREFIX_LENGTH = 64;

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key every per-address limit counts under (the failed-login throttle, the request rate, pending
 * password logins and certificate challenges): an IPv4 address as it is; an IPv6 address by its first
 * `ipv6PrefixLength` bits, since one host is usually handed a whole /64 (RFC 7421 §1) and could
 * otherwise take a fresh address for every try; an IPv4-mapped IPv6 address (RFC 4291 §2.5.5.2) as
 * the IPv4 address it maps. Anything else (no address) is its own key.
 */
export function clientAddressKey(address: string, ipv6PrefixLength = DEFAULT_IPV6_PREFIX_LENGTH): string {
  const bare = address.split('%')[0]!;
  if (isIP(bare) !== 6) return address;
  const groups = ipv6Groups(bare.toLowerCase());
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  const masked = groups.map((group, i) => {
    const bits = Math.min(Math.max(ipv6PrefixLength - i * 16, 0), 16);
    return group & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${masked.map((group) => group.toString(16)).join(':')}/${ipv6PrefixLength}`;
}
