import { createHash } from 'node:crypto';
import type { Server } from 'node:https';
import type { TLSSocket, TlsOptions } from 'node:tls';
import type { DaemonLog } from './daemon-handler.js';

/** The gateways a daemon talks to: CA certificates (PEM) their client certificates chain to, and/or pinned fingerprints. */
export interface ClientTrust {
  readonly cas: readonly string[];
  /** Lower-case hex SHA-256 of a client certificate's DER. */
  readonly fingerprints: readonly string[];
}

/**
 * TLS options for mutual TLS (docs/keyserver-protocol.md): a client certificate is requested on every connection.
 * With CAs only, OpenSSL refuses an unvalidated client during the handshake; with pins, the check runs
 * in `guardConnections` before the HTTP layer sees the socket.
 */
export function clientTrustOptions(trust: ClientTrust): TlsOptions {
  const pinsOnly = trust.fingerprints.length === 0;
  return { requestCert: true, rejectUnauthorized: pinsOnly, ...(trust.cas.length > 0 ? { ca: [...trust.cas] } : {}) };
}

/**
 * Destroys every connection whose client certificate is neither validated against a given CA nor
 * pinned, before a byte of a request is read: the listener runs first on 'secureConnection', ahead
 * of the one that hands the socket to the HTTP parser. A resumed session carries the certificate it
 * was established with, so resumption gets the same check.
 */
export function guardConnections(server: Server, trust: ClientTrust, log: DaemonLog): void {
  const pins = new Set(trust.fingerprints);
  server.prependListener('secureConnection', (socket: TLSSocket) => {
    if (isTrusted(socket, pins)) return;
    const peer = socket.remoteAddress ?? 'unknown';
    socket.destroy();
    log(`keygate keyserver: refused a connection from ${peer}: client certificate not trusted`);
  });
}

function isTrusted(socket: TLSSocket, pins: ReadonlySet<string>): boolean {
  if (socket.authorized) return true;
  // The DER alone: getPeerCertificate() would decode every field of the certificate into an object.
  const raw = socket.getPeerX509Certificate()?.raw;
  if (!raw || raw.length === 0) return false;
  return pins.has(createHash('sha256').update(raw).digest('hex'));
}
