import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { Owner } from './child-processes.js';

/** A TCP listener that accepts connections and never answers: a hung key-server daemon. */
export interface HungListener {
  readonly url: string;
  readonly port: number;
  /** Connections accepted so far. */
  accepted(): number;
}

/**
 * Listens on a loopback port, accepts every connection and never writes a byte, so a TLS handshake
 * with it never completes. Closed, its connections with it, when `owner` ends.
 */
export async function startHungListener(owner: Owner, host = '127.0.0.1'): Promise<HungListener> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  owner.teardown(
    () =>
      new Promise<void>((closed) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => closed());
      }),
  );
  await new Promise<void>((listening) => server.listen(0, host, listening));
  const { port } = server.address() as AddressInfo;
  return { url: `https://${host}:${port}`, port, accepted: () => accepted };
}
