import { createHash, webcrypto } from 'node:crypto';
import * as DPoP from 'dpop';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import type { GatewayConfigInput } from '../../src/app/config/config.js';
import { createGateway, type Gateway } from '../../src/app/create-gateway.js';
import { PASSWORDS, SEED } from '../_support/gateway.js';
import { call, type Reply } from '../_support/http.js';

/** A gateway built for embedding (real clock: proofs are minted by panva's dpop with the time of day). */
export async function embeddableGateway(config: GatewayConfigInput = {}): Promise<Gateway> {
  return createGateway(
    { keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin }, ...config },
    { logger: new MemoryLogger() },
  );
}

/** base64url of the SHA-256 of the exact body bytes: the gateway's `bth` (seed 001 §5). */
export function bth(body: string): string {
  return createHash('sha256').update(body).digest('base64url');
}

/** An RFC 9449 client: a DPoP key pair, and requests sent with `Authorization: DPoP <session>`. */
export async function dpopClient() {
  const keypair = await DPoP.generateKeyPair('ES256');
  const publicJwk = await webcrypto.subtle.exportKey('jwk', keypair.publicKey);
  return {
    senderKey: { kty: publicJwk.kty!, crv: publicJwk.crv!, x: publicJwk.x!, y: publicJwk.y! },
    /** `htuBase` is the URL the client addresses the gateway by, mount point included. */
    async send(base: string, htuBase: string, method: string, path: string, session: string, body?: unknown): Promise<Reply> {
      const raw = body === undefined ? '' : JSON.stringify(body);
      const proof = await DPoP.generateProof(keypair, `${htuBase}${path}`, method, undefined, session, { bth: bth(raw) });
      const headers: Record<string, string> = { Authorization: `DPoP ${session}`, DPoP: proof };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return call(base, method, path, { headers, ...(body === undefined ? {} : { raw }) });
    },
  };
}

/**
 * Through the gateway at `base`: alice signs in, makes a key, mints a session bound to the client's
 * DPoP key, and exports the key with that session. Answers the export's reply and the key's ttag.
 */
export async function boundExport(base: string, htuBase: string, client: Awaited<ReturnType<typeof dpopClient>>, clientPubKey: string) {
  const login = await call(base, 'POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  const bearer = { Authorization: `Bearer ${login.body.sessionId}` };
  const created = await call(base, 'POST', '/api/keys', { headers: bearer, body: {} });
  const ttag = created.body.ttag as string;
  const scoped = await call(base, 'POST', '/api/session/scoped', {
    headers: bearer,
    body: { objects: [ttag], senderKey: client.senderKey },
  });
  const session = scoped.body.sessionId as string;
  const path = `/api/keys/${Buffer.from(ttag, 'base64').toString('base64url')}/export`;
  const exported = await client.send(base, htuBase, 'POST', path, session, { clientPubKey });
  return { login, created, scoped, session, path, exported };
}
