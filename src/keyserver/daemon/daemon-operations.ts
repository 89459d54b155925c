import type { z } from 'zod';
import type { ProvisioningPolicy } from '../../domain/certificate/certificate.js';
import type { EngineParts } from '../engine/engine-parts.js';
import type { OperationArgs, OperationName, OPERATIONS } from '../protocol/keyserver-protocol.js';

type Handler<N extends OperationName> = (parts: EngineParts, token: string, args: OperationArgs<N>) => z.input<(typeof OPERATIONS)[N]['result']>;

/**
 * `POST /v1/op/<name>`: each protocol operation mapped to the engine method that does it. The
 * engine authenticates the token and decides every authorization itself.
 */
export const OPERATION_HANDLERS: { readonly [N in OperationName]: Handler<N> } = {
  whoami: ({ engine }, token) => engine.whoami(token),
  generateKey: ({ engine }, token, args) => engine.generateKey(token, args),
  exportKey: ({ engine }, token, args) => {
    const blob = engine.exportKey(token, args.ttag);
    try {
      return { nid: blob.nid, key: blob.key.toString('base64') };
    } finally {
      blob.key.fill(0);
    }
  },
  readAcl: ({ engine }, token, args) => engine.readAcl(token, args.ttag),
  grant: ({ engine }, token, args) => engine.grant(token, args.ttag, args.principal, args.rights),
  revoke: ({ engine }, token, args) => (engine.revoke(token, args.ttag, args.principal), null),
  revokeToken: ({ engine }, token) => (engine.revokeToken(token), null),
  mintScoped: ({ identity }, token, args) => {
    const minted = identity.mintScoped(token, args);
    return { token: minted.token, identity: minted.identity, expiresAt: minted.expiresAt ?? null, scope: minted.scope };
  },
  mintDelegated: ({ identity }, token, args) => {
    const minted = identity.mintDelegated(token, args);
    return { token: minted.token, identity: minted.identity, expiresAt: minted.expiresAt ?? null, actingFor: minted.actingFor };
  },
  addTrustAuthority: ({ identity }, token, args) => identity.addAuthority(token, args.pem),
  enrollCertificate: ({ identity }, token, args) => identity.enroll(token, args.principal, args.pem),
  putSenderKey: ({ identity }, token, args) => identity.putSenderKey(token, args.principal, args.jwk),
  readPolicy: ({ identity }, token) => policyReply(identity.readPolicy(token)),
  setPolicy: ({ identity }, token, args) => policyReply(identity.setPolicy(token, args.name, args.value)),
};

/** Runs one operation; the generic ties the name to its arguments. */
export function runOperation<N extends OperationName>(parts: EngineParts, name: N, token: string, args: OperationArgs<N>): unknown {
  return (OPERATION_HANDLERS[name] as Handler<N>)(parts, token, args);
}

function policyReply(policy: ProvisioningPolicy) {
  return { ...policy, defaultRoles: [...policy.defaultRoles], defaultGroups: [...policy.defaultGroups] };
}
