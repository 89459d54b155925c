import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/** How the issuer's key set endpoint answers: its keys, never, 10 MB, or a redirect to a metadata address. */
export type JwksMode = 'serve' | 'hang' | 'huge' | 'redirect';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

interface SigningKey {
  readonly kid: string;
  readonly pair: KeyPair;
  readonly jwk: JWK;
}

/**
 * A workload identity issuer in the test process (docs/spec.md §4.24): jose signs its tokens with
 * ES256 keys, and a local HTTP server on 127.0.0.1 serves their key set (the gateway lists the host in
 * TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS). The issuer may rotate: a new key is published beside the old,
 * or the old one is dropped.
 */
export interface TestIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  mode: JwksMode;
  /** How many times the key set was asked for. */
  readonly fetches: () => number;
  /** The first published key (its `kid`), the newest, and every published key's public JWK. */
  readonly current: () => SigningKey;
  readonly published: () => readonly JWK[];
  /** Signs `claims` (iss added) with the newest key, or the one given; header `kid` unless `kid: null`. */
  sign(claims: JWTPayload, options?: { key?: SigningKey; kid?: string | null; alg?: string }): Promise<string>;
  /** Publishes a new key beside the others; with `dropOld` the older ones are withdrawn. */
  rotate(dropOld?: boolean): Promise<SigningKey>;
  /** A key of the same shape that the issuer never published. */
  stranger(kid: string): Promise<SigningKey>;
}

async function newKey(kid: string): Promise<SigningKey> {
  const pair = await generateKeyPair('ES256', { extractable: true });
  return { kid, pair, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

function answer(mode: JwksMode, response: ServerResponse, keys: readonly JWK[]): void {
  if (mode === 'hang') return;
  if (mode === 'redirect') {
    response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }).end();
    return;
  }
  if (mode === 'huge') {
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 10; i++) response.write(chunk);
    response.end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
}

export async function startIssuer(t: ExecutionContext): Promise<TestIssuer> {
  let keys = [await newKey('key-1')];
  let fetches = 0;
  const self = { mode: 'serve' as JwksMode };
  const server = createServer((request, response) => {
    fetches += 1;
    request.resume();
    answer(
      self.mode,
      response,
      keys.map((key) => key.jwk),
    );
  });
  t.teardown(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const issuer = `https://issuer.test:${port}`;
  let serial = 1;
  return Object.assign(self, {
    issuer,
    jwksUri: `http://127.0.0.1:${port}/jwks`,
    fetches: () => fetches,
    current: () => keys.at(-1)!,
    published: () => keys.map((key) => key.jwk),
    async sign(claims: JWTPayload, options: { key?: SigningKey; kid?: string | null; alg?: string } = {}) {
      const key = options.key ?? keys.at(-1)!;
      const kid = options.kid === undefined ? key.kid : options.kid;
      return await new SignJWT({ iss: issuer, ...claims })
        .setProtectedHeader({ alg: options.alg ?? 'ES256', typ: 'JWT', ...(kid === null ? {} : { kid }) })
        .sign(key.pair.privateKey);
    },
    async rotate(dropOld = false) {
      serial += 1;
      const added = await newKey(`key-${serial}`);
      keys = dropOld ? [added] : [...keys, added];
      return added;
    },
    stranger: newKey,
  });
}
