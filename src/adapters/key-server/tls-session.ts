/** DER tag of the session's `peer [3] EXPLICIT Certificate OPTIONAL` member (OpenSSL `ssl/ssl_asn1.c`). */
const PEER_CERTIFICATE_TAG = 0xa3;
const SEQUENCE_TAG = 0x30;

/**
 * A client's TLS session (the DER of OpenSSL's `SSL_SESSION`, as Node's `'session'` event gives it)
 * without the server's certificate, or the session unchanged when it is not laid out as expected.
 *
 * Why: OpenSSL 3.0 (Node 20) decodes the certificate of a stored session, its public key included,
 * each time the session is offered on a new connection, and that decode costs more of the gateway's
 * CPU than the rest of a resumed handshake. A resumed TLS 1.3 handshake carries no certificate, and
 * the dialer accepts it on the strength of the session's secret alone, which only the server it
 * validated holds (RFC 8446 §2.2). Node verifies a resumed TLS 1.3 session without a peer
 * certificate as valid and skips the host-name check on a resumption, so nothing reads it. Tickets
 * of later resumptions are copies of this session, so they carry no certificate either.
 *
 * Only the top-level `[3]` element goes. A session this cannot walk is returned as it came, and one
 * OpenSSL cannot read makes the next connection a full, fully validated handshake: the change can
 * cost a resumption, never a check.
 */
export function withoutPeerCertificate(session: Buffer): Buffer {
  const outer = elementAt(session, 0);
  if (session[0] !== SEQUENCE_TAG || outer === undefined || outer.end !== session.length) return session;
  const kept: Buffer[] = [];
  let found = false;
  for (let at = outer.contentStart; at < outer.end; ) {
    const element = elementAt(session, at);
    if (element === undefined || element.end > outer.end) return session;
    if (session[at] === PEER_CERTIFICATE_TAG) found = true;
    else kept.push(session.subarray(at, element.end));
    at = element.end;
  }
  if (!found) return session;
  const content = Buffer.concat(kept);
  return Buffer.concat([Buffer.from([SEQUENCE_TAG]), derLength(content.length), content]);
}

/** The element at `at`: where its content starts and where it ends (one-byte tags, lengths up to 2^24). */
function elementAt(der: Buffer, at: number): { contentStart: number; end: number } | undefined {
  const first = der[at + 1];
  if (first === undefined) return undefined;
  if (first < 0x80) return { contentStart: at + 2, end: at + 2 + first };
  const octets = first & 0x7f;
  if (octets === 0 || octets > 3 || at + 2 + octets > der.length) return undefined;
  let length = 0;
  for (let i = 0; i < octets; i += 1) length = length * 256 + der[at + 2 + i]!;
  return { contentStart: at + 2 + octets, end: at + 2 + octets + length };
}

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  if (length < 0x100) return Buffer.from([0x81, length]);
  if (length < 0x10000) return Buffer.from([0x82, length >> 8, length & 0xff]);
  return Buffer.from([0x83, length >> 16, (length >> 8) & 0xff, length & 0xff]);
}
