import { connect } from 'node:tls';

/** A raw connection to a daemon that chose the framed transport by ALPN (docs/keyserver-protocol.md). */
export interface FramedConnection {
  /** What the handshake chose. */
  readonly protocol: string | false | null;
  /** Writes bytes as they are: whole frames, several at once, or part of one. */
  send(data: string | Buffer): void;
  /** The next answer line, parsed; undefined when the connection ended first. */
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer, which tests read by its shape
  answer(): Promise<any>;
  /** Settles when the connection has closed. */
  readonly closed: Promise<void>;
  close(): void;
}

export interface FramedOptions {
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
}

/** Opens a TLS 1.3 connection offering only the framed transport. */
export function openFramed(base: string, options: FramedOptions): Promise<FramedConnection> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ALPNProtocols: ['keygate/1'], minVersion: 'TLSv1.3', ...options });
    const lines: string[] = [];
    const waiting: ((line: string | undefined) => void)[] = [];
    let pending = '';
    let ended = false;
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    void closed.then(() => {
      ended = true;
      for (const wake of waiting.splice(0)) wake(undefined);
    });
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        const wake = waiting.shift();
        if (wake === undefined) lines.push(line);
        else wake(line);
      }
    });
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      socket.removeListener('error', reject);
      socket.on('error', () => undefined);
      resolve({
        protocol: socket.alpnProtocol,
        send: (data) => void socket.write(data),
        answer: async () => {
          const line = lines.shift() ?? (ended ? undefined : await new Promise<string | undefined>((wake) => waiting.push(wake)));
          return line === undefined ? undefined : JSON.parse(line);
        },
        closed,
        close: () => socket.destroy(),
      });
    });
  });
}
