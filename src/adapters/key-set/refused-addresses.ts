import { BlockList, isIPv4 } from 'node:net';

/**
 * Addresses a key set is never fetched from unless the operator lists the host (docs/spec.md §4.24
 * item 4): unspecified, loopback, link-local (the cloud metadata services live there) and the other
 * cloud metadata addresses. Checked on every address a name resolves to.
 */
const REFUSED = new BlockList();
REFUSED.addSubnet('0.0.0.0', 8, 'ipv4');
REFUSED.addSubnet('127.0.0.0', 8, 'ipv4');
REFUSED.addSubnet('169.254.0.0', 16, 'ipv4');
REFUSED.addAddress('100.100.100.200', 'ipv4');
REFUSED.addAddress('::', 'ipv6');
REFUSED.addAddress('::1', 'ipv6');
REFUSED.addSubnet('fe80::', 10, 'ipv6');
REFUSED.addAddress('fd00:ec2::254', 'ipv6');

/** An IPv4-mapped IPv6 address (`::ffff:169.254.169.254`) as the IPv4 address it stands for. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIPv4(address) ? 'ipv4' : 'ipv6' };
}

export function isRefusedAddress(address: string): boolean {
  const plain = unmapped(address);
  return REFUSED.check(plain.address, plain.family);
}
