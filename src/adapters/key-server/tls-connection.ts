import type { z } from 'zod';
import type { Right } from '../../domain/acl/acl.js';
import { KeyServerFailedError } from '../../domain/errors/index.js';
import type { KeyLength } from '../../domain/keywrap/key-length.js';
import { Secret } from '../../domain/secret/secret.js';
import {
  OPERATIONS,
  PATHS,
  type OperationArgs,
  type OperationName,
  type OperationResult,
} from '../../keyserver/protocol/keyserver-protocol.js';
import type { DelegatedToken, KeyServerConnection, ScopedToken } from '../../ports/key-server.port.js';
import type { TlsChannel } from './tls-channel.js';

/** One gateway request's connection: each port method is one `POST /v1/op/<name>`. */
export class TlsConnection implements KeyServerConnection {
  readonly #channel: TlsChannel;
  readonly #token: Secret;
  #closed = false;

  constructor(channel: TlsChannel, token: Secret) {
    this.#channel = channel;
    this.#token = token;
  }

  whoami() {
    return this.#op('whoami', {});
  }

  generateKey(options: { keyLen: KeyLength }) {
    return this.#op('generateKey', { keyLen: options.keyLen });
  }

  async exportKey(ttag: string) {
    const { nid, key } = await this.#op('exportKey', { ttag });
    return { nid, key: decode(key) };
  }

  readAcl(ttag: string) {
    return this.#op('readAcl', { ttag });
  }

  grant(ttag: string, principal: string, rights: readonly Right[]) {
    return this.#op('grant', { ttag, principal, rights: [...rights] });
  }

  async revoke(ttag: string, principal: string) {
    await this.#op('revoke', { ttag, principal });
  }

  async mintScoped(request: { objects: readonly string[]; rights?: readonly Right[] | undefined; ttlMs: number }): Promise<ScopedToken> {
    const minted = await this.#op('mintScoped', {
      objects: [...request.objects],
      ...(request.rights === undefined ? {} : { rights: [...request.rights] }),
      ttlMs: request.ttlMs,
    });
    return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt ?? undefined, scope: minted.scope };
  }

  async mintDelegated(target: { principal: string } | { certificate: string }): Promise<DelegatedToken> {
    const minted = await this.#op('mintDelegated', target);
    return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt ?? undefined, actingFor: minted.actingFor };
  }

  addTrustAuthority(pem: string) {
    return this.#op('addTrustAuthority', { pem });
  }

  enrollCertificate(principal: string, pem: string) {
    return this.#op('enrollCertificate', { principal, pem });
  }

  putSenderKey(principal: string, jwk: unknown) {
    return this.#op('putSenderKey', { principal, jwk: jwk as Record<string, unknown> });
  }

  readPolicy() {
    return this.#op('readPolicy', {});
  }

  setPolicy(name: string, value: unknown) {
    return this.#op('setPolicy', { name, value });
  }

  async signOut() {
    await this.#op('revokeToken', {});
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channel.close();
  }

  async #op<N extends OperationName>(name: N, args: OperationArgs<N>): Promise<OperationResult<N>> {
    if (this.#closed) throw new KeyServerFailedError('connection is closed');
    const reply = await this.#channel.call('POST', PATHS.operation(name), args, this.#token);
    if (typeof reply !== 'object' || reply === null || !('result' in reply)) {
      throw new KeyServerFailedError(`key server reply to ${name} does not follow the protocol`);
    }
    return parseReply(OPERATIONS[name].result, reply.result, name) as OperationResult<N>;
  }
}

/** Style rule 8: a key-server reply is validated at the adapter; a mismatch is KEY_SERVER_FAILED. */
export function parseReply<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new KeyServerFailedError(`key server reply to ${what} does not follow the protocol`);
  return parsed.data;
}

/** Binary values travel as standard base64 (docs/keyserver-protocol.md). */
export function decode(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}
