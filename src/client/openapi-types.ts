/**
 * The /api surface's types, generated from openapi.json by openapi-typescript (`npm run openapi`,
 * scripts/client-types.ts): do not edit. src/client/api-types.ts names the views the client answers
 * from these; test/client/api-types.test.ts fails when this file is not what a fresh generation makes.
 */

export interface paths {
    readonly "/api/session": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The session view of the presented session */
        readonly get: operations["session.read"];
        readonly put?: never;
        /** Password login (checked against the SRP-6a verifier; the password never leaves the gateway); an unbound session */
        readonly post: operations["session.password"];
        /** Logout: 204 for a live credential, a dead one, and none */
        readonly delete: operations["session.logout"];
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/session/certificate/challenge": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** First leg of certificate login: a single-use 32-byte challenge, valid 60 s */
        readonly post: operations["session.certificate.challenge"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/session/certificate": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Second leg of certificate login: the signature over the challenge */
        readonly post: operations["session.certificate"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/session/jwt": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Workload sign-in with its platform's signed token, verified over a trusted issuer (docs/spec.md §4.24); an unbound session */
        readonly post: operations["session.jwt"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/session/scoped": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** A session narrowed to listed keys and rights, bound to senderKey */
        readonly post: operations["session.scoped"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/session/delegated": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** A session acting as an externally authenticated principal; bound services only */
        readonly post: operations["session.delegated"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/sessions": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The live sessions of the caller's principal, by non-secret reference */
        readonly get: operations["sessions.list"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/encrypt": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** AES-GCM under the key's newest version, 12-byte iv, 16-byte tag; right encrypt */
        readonly post: operations["crypto.encrypt"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/decrypt": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** AES-GCM decryption by version (default 1); a bad tag is 400 DECRYPT_FAILED; right decrypt */
        readonly post: operations["crypto.decrypt"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/rewrap": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Decrypt by version (default 1) and encrypt under the newest, inside the key server; rights decrypt and encrypt */
        readonly post: operations["crypto.rewrap"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/mac": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** HMAC-SHA256 under the key's newest version; right mac */
        readonly post: operations["crypto.mac"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/mac/verify": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Check an HMAC-SHA256 by version (default 1) in constant time; right mac */
        readonly post: operations["crypto.mac.verify"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/datakey": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** A fresh data key sealed under the key's newest version, and wrapped to clientPubKey when given; right encrypt */
        readonly post: operations["crypto.datakey"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/datakey/open": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** A data key's blob opened and its data key wrapped again to clientPubKey; right decrypt */
        readonly post: operations["crypto.datakey.open"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/sign": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Sign a message or its digest with the key's newest version, in the key server; right sign */
        readonly post: operations["crypto.sign"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/sign/verify": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Check a signature by a version (version or kid) or by any version not retired; right read */
        readonly post: operations["crypto.sign.verify"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/crypto/sign-jwt": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** A compact JWS of the claims under the key's alg and newest version, made in the key server; right sign */
        readonly post: operations["crypto.sign-jwt"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/public-key": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** A version of the signing key (default the newest, retired ones too) as PEM (SPKI) and JWK; right read */
        readonly get: operations["keys.public-key"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/jwks": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The JWKS of the signing key: the JWK of every version not retired, newest first; right read */
        readonly get: operations["keys.jwks"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The keys the caller may use, newest first, filtered, a page at a time (limit 1..1000, default 100, opaque cursor) */
        readonly get: operations["keys.list"];
        readonly put?: never;
        /** Create a key owned by the caller (16, 24 or 32 bytes), with an optional rotation period */
        readonly post: operations["keys.create"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The key view (never key material); right read */
        readonly get: operations["keys.read"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/versions": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The key's versions, newest first, a page at a time (limit 1..1000, default 100, opaque cursor); right read */
        readonly get: operations["keys.versions"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/export": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Export a version of the key (default the newest) wrapped to the client's ephemeral P-256 or X-Wing key; right export */
        readonly post: operations["keys.export"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/rotate": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Add the next version of the key, made by the key server; owner or right rotate */
        readonly post: operations["keys.rotate"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/min-version": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Retire the versions below minVersion (owner); the minimum never goes down */
        readonly put: operations["keys.min-version"];
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/published": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Publish the signing key's JWKS at /jwks/{alias}.json and /jwks/keys/{ttag}.json without a session, or withdraw it (owner) */
        readonly put: operations["keys.publish"];
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/expire": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Expire the key for good (owner); it then refuses export and cryptography */
        readonly post: operations["keys.expire"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/disable": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Disable the key (owner): it refuses export and cryptography with KEY_DISABLED until enabled */
        readonly post: operations["keys.disable"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/enable": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Enable a disabled key again (owner) */
        readonly post: operations["keys.enable"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/schedule-deletion": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Schedule the key for deletion in pendingDays days (owner; the key server bounds them, 7..30 by default, the maximum when not given): it refuses export and cryptography with KEY_PENDING_DELETION until cancelled, then is destroyed */
        readonly post: operations["keys.schedule-deletion"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/cancel-deletion": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Cancel the key's scheduled deletion (owner): it comes back disabled (or expired), never straight to active */
        readonly post: operations["keys.cancel-deletion"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/tags/{name}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Set one of the key's tags, replacing its value (owner or right tag; at most 50 a key) */
        readonly put: operations["keys.tag"];
        readonly post?: never;
        /** Delete one of the key's tags (owner or right tag); one the key does not carry changes nothing */
        readonly delete: operations["keys.untag"];
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/acl": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The key's access list (owner) */
        readonly get: operations["acl.read"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/acl/{principal}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Set (replace) a principal's rights on the key (owner) */
        readonly put: operations["acl.put"];
        readonly post?: never;
        /** Remove a principal's entry from the key's ACL (owner) */
        readonly delete: operations["acl.delete"];
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/keys/{ttag}/access": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The caller's effective rights on the key (own entry, groups' entries, ownership), and its conditioned entries */
        readonly get: operations["acl.access"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/aliases": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Aliases by name, of the keys the caller would see listed, a page at a time (limit 1..1000, default 100, opaque cursor); ttag narrows to one key, prefix to names that begin with it */
        readonly get: operations["aliases.list"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/aliases/{alias}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Make the alias name the key (owner of the key, and of the key it named when it moves); at most 50 aliases a key */
        readonly put: operations["aliases.put"];
        readonly post?: never;
        /** Remove the alias (owner of the key it names) */
        readonly delete: operations["aliases.delete"];
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/principals": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Principals by name, a page at a time (limit 1..500, opaque cursor) */
        readonly get: operations["principals.list"];
        readonly put?: never;
        /** Create a user, group or service (admin) */
        readonly post: operations["principals.create"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/principals/{name}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** One principal (admin, auditor, or the principal itself) */
        readonly get: operations["principals.read"];
        /** Change displayName, disabled, roles or a service's delegates; only the fields given change (admin) */
        readonly put: operations["principals.update"];
        readonly post?: never;
        /** Delete a principal and end its key-server tokens (admin) */
        readonly delete: operations["principals.delete"];
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/principals/{name}/password": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Set a password: your own with currentPassword (proven by SRP), anyone else's as admin; other sessions end */
        readonly put: operations["principals.password"];
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/principals/{name}/groups": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The groups a principal belongs to */
        readonly get: operations["principals.groups"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/principals/{name}/sender-key": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Register a principal's sender key (public RSA or EC P-256) */
        readonly put: operations["principals.senderKey.put"];
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/groups": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Groups by name, a page at a time (limit 1..1000, default 100, opaque cursor) */
        readonly get: operations["groups.list"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/groups/{name}/members": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** A group's members (users and services) */
        readonly get: operations["groups.members.list"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/groups/{name}/members/{member}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Add a member to a group (admin) */
        readonly put: operations["groups.members.add"];
        readonly post?: never;
        /** Remove a member from a group (admin) */
        readonly delete: operations["groups.members.remove"];
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/roles": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Every role with its operation ids */
        readonly get: operations["roles.list"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/roles/{role}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** One role */
        readonly get: operations["roles.read"];
        /** Define or redefine a role; an unknown operation id is 400 (admin) */
        readonly put: operations["roles.put"];
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/certificates": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Trusted authorities and enrolled certificates, by id (filters: subject part, principal) */
        readonly get: operations["certificates.list"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/certificates/{id}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** One certificate object by its SHA-256 id */
        readonly get: operations["certificates.read"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/certificates/parse": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Read a PEM certificate; nothing is stored; garbage is 400 CERTIFICATE_MALFORMED */
        readonly post: operations["certificates.parse"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/certificates/verify": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Whether a certificate chains to a trusted authority now: { trusted, chain, reason? } */
        readonly post: operations["certificates.verify"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/trust/authorities": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The trusted certificate authorities */
        readonly get: operations["trust.authorities.list"];
        readonly put?: never;
        /** Trust a certificate authority (a CA certificate) */
        readonly post: operations["trust.authorities.add"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/trust/authorities/{id}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        readonly post?: never;
        /** Stop trusting an authority; logins of the leaves it issued are refused */
        readonly delete: operations["trust.authorities.delete"];
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/trust/enrollments": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Enroll a leaf that chains to a trusted authority to a principal */
        readonly post: operations["trust.enrollments.add"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/trust/issuers": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The trusted issuers of workload identity tokens (docs/spec.md §4.24) */
        readonly get: operations["trust.issuers.list"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/trust/issuers/{name}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** One trusted issuer */
        readonly get: operations["trust.issuers.read"];
        /** Trust an issuer of workload identity tokens, or replace its settings */
        readonly put: operations["trust.issuers.put"];
        readonly post?: never;
        /** Stop trusting an issuer; sign-ins with its tokens are refused */
        readonly delete: operations["trust.issuers.delete"];
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/server/version": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Versions of the key server, the gateway and the API */
        readonly get: operations["server.version"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/server/config": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The key-server configuration, secrets redacted */
        readonly get: operations["server.config"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/server/parameters": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The key-server parameters: name, value, type, description */
        readonly get: operations["server.parameters.list"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/server/parameters/{name}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Set one parameter; unknown name 404, wrong type 400 */
        readonly put: operations["server.parameters.put"];
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/policy/provisioning": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** The four auto-provisioning parameters */
        readonly get: operations["policy.provisioning.read"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/policy/provisioning/{parameter}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        /** Set one auto-provisioning parameter; unknown name 404, wrong type 400 */
        readonly put: operations["policy.provisioning.write"];
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/audit": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Audit records, newest first, filtered and paged */
        readonly get: operations["audit.query"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/audit/verify": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Verify the audit chains and checkpoints of a time range; names every break */
        readonly get: operations["audit.verify"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/audit/{id}": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** One audit record */
        readonly get: operations["audit.get"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/health": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Liveness, the key-server fingerprint and the checks */
        readonly get: operations["health"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/api/openapi.json": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** This OpenAPI document: the /api surface and the seven operations */
        readonly get: operations["openapi"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/login": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Password login: an X-Session id for the other operations */
        readonly post: operations["root.login"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/logout": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** End the session */
        readonly post: operations["root.logout"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/keys": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Generate a 16-byte key owned by the caller */
        readonly post: operations["root.keys.generate"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/keys/export": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Export a key wrapped to the client's ephemeral P-256 key */
        readonly post: operations["root.keys.export"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/keys/grant": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Give a user export access to a key (owner) */
        readonly post: operations["root.keys.grant"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/keys/revoke": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly get?: never;
        readonly put?: never;
        /** Take a user's access to a key away (owner) */
        readonly post: operations["root.keys.revoke"];
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
    readonly "/health": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        /** Liveness, the key-server fingerprint and the live session count */
        readonly get: operations["root.health"];
        readonly put?: never;
        readonly post?: never;
        readonly delete?: never;
        readonly options?: never;
        readonly head?: never;
        readonly patch?: never;
        readonly trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        readonly Session: {
            /** @description only when the session is minted */
            readonly sessionId?: string;
            readonly user: string;
            readonly systemId: number;
            readonly principalId: string;
            /** @enum {string} */
            readonly kind: "password" | "certificate" | "jwt" | "scoped" | "delegated";
            readonly bound: boolean;
            readonly jkt?: string;
            readonly objects?: readonly string[];
            readonly rights?: readonly ("read" | "export" | "encrypt" | "decrypt" | "mac" | "rotate" | "tag" | "sign")[];
            /** Format: date-time */
            readonly expiresAt: string;
            readonly actingFor?: string;
        };
        readonly DataKey: {
            /** @description the data key sealed under the key version (docs/spec.md §4.5a item 5) */
            readonly blob: string;
            /** @description the data key wrapped to clientPubKey (info `keygate datakey v1`, or `v2` to an X-Wing key); only when one was sent */
            readonly wrapped?: components["schemas"]["ClientWrappedKey"];
            readonly keyLen: 16 | 24 | 32;
            /** @description the key version */
            readonly version: number;
        };
        readonly ClientWrappedKey: {
            /** @description standard base64 */
            readonly gatewayPubKey: string;
            /** @description standard base64 */
            readonly salt: string;
            /** @description standard base64 */
            readonly iv: string;
            /** @description standard base64 */
            readonly ciphertext: string;
            /** @description standard base64 */
            readonly authTag: string;
        } | {
            /**
             * @description the HPKE suite: KEM X-Wing, KDF HKDF-SHA256, AEAD AES-256-GCM
             * @constant
             */
            readonly algo: "hpke-xwing-hkdf-sha256-aes-256-gcm";
            /** @description the encapsulated key, 1,120 bytes */
            readonly enc: string;
            /** @description the sealed key, then the 16-byte tag */
            readonly ciphertext: string;
        };
        readonly DataKeyOpened: {
            readonly wrapped: components["schemas"]["ClientWrappedKey"];
            readonly keyLen: 16 | 24 | 32;
            /** @description the key version */
            readonly version: number;
        };
        readonly SigningJwk: {
            /** @enum {string} */
            readonly kty: "EC" | "OKP" | "RSA";
            readonly kid: string;
            /** @enum {string} */
            readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
            /** @constant */
            readonly use: "sig";
        } & {
            readonly [key: string]: string;
        };
        readonly Key: {
            /** @description standard base64 */
            readonly ttag: string;
            /**
             * @description aes, or a signing key type (docs/spec.md §4.25)
             * @enum {string}
             */
            readonly type: "aes" | "ec-p256" | "ec-p384" | "ed25519" | "rsa-2048" | "rsa-3072" | "rsa-4096";
            /** @description an aes key's length in bytes */
            readonly keyLen?: 16 | 24 | 32;
            /** @description an aes key's export label */
            readonly algo?: string;
            /**
             * @description a signing key's algorithm: its JWKS names it, sign-jwt uses it
             * @enum {string}
             */
            readonly alg?: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
            /** @description a signing key's: whether its private key may be exported */
            readonly exportable?: boolean;
            /** @description a signing key's: whether its JWKS is served without a session */
            readonly published?: boolean;
            /** @description a signing key's: the longest lifetime of a JWT it signs, seconds */
            readonly jwtMaxLifetime?: number;
            readonly label?: string;
            readonly owner: {
                readonly user: string;
                readonly systemId: number;
                readonly principalId: string;
            };
            /**
             * @description the first that holds of deleted, pending-deletion, expired, disabled, active
             * @enum {string}
             */
            readonly state: "deleted" | "pending-deletion" | "expired" | "disabled" | "active";
            /** Format: date-time */
            readonly createdAt: string;
            /** Format: date-time */
            readonly expiresAt?: string;
            /** @description the newest version: encrypt and MAC use it, export delivers it by default */
            readonly version: number;
            /** @description versions below it are retired */
            readonly minVersion: number;
            /** @description the newest versions (at most 20), oldest first; GET /api/keys/{ttag}/versions pages through all */
            readonly versions: readonly components["schemas"]["KeyVersion"][];
            /** @description how many older versions `versions` leaves out, when any */
            readonly versionsOmitted?: number;
            /** @description ISO 8601 duration: the key server rotates the key once it has passed */
            readonly rotationPeriod?: string;
            /** Format: date-time */
            readonly nextRotationAt?: string;
            /** @description the key's tags, name to value; {} for none (docs/spec.md §4.23 item 2) */
            readonly tags: {
                readonly [key: string]: string;
            };
            /**
             * Format: date-time
             * @description when the key server destroys the key, while it is pending deletion
             */
            readonly deletionAt?: string;
            /**
             * Format: date-time
             * @description when the key server destroyed the key: only its tombstone remains
             */
            readonly deletedAt?: string;
            /**
             * Format: date-time
             * @description when the key was last used, at most 60 s behind its latest use (docs/spec.md §4.23 item 6); absent until its first use
             */
            readonly lastUsedAt?: string;
            /**
             * @description the use that wrote lastUsedAt
             * @enum {string}
             */
            readonly lastUsedOperation?: "export" | "encrypt" | "decrypt" | "mac" | "mac.verify" | "rewrap" | "datakey" | "datakey.open" | "sign" | "sign.verify" | "sign-jwt";
        };
        readonly KeyVersion: {
            readonly version: number;
            /** Format: date-time */
            readonly createdAt: string;
            /** @enum {string} */
            readonly state: "active" | "retired";
        };
        readonly WrappedKeyVersion: {
            readonly wrapped: components["schemas"]["ClientWrappedKey"];
            readonly algo: string;
            readonly keyLen: 16 | 24 | 32;
            /** @description the key version */
            readonly version: number;
        } | {
            readonly wrapped: components["schemas"]["ClientWrappedKey"];
            /**
             * @description the signing key type
             * @enum {string}
             */
            readonly type: "ec-p256" | "ec-p384" | "ed25519" | "rsa-2048" | "rsa-3072" | "rsa-4096";
            /**
             * @description the private key's PKCS#8 (DER), wrapped
             * @constant
             */
            readonly format: "pkcs8";
            /** @description the key version */
            readonly version: number;
        };
        readonly KeySummary: {
            /** @description standard base64 */
            readonly ttag: string;
            /**
             * @description aes, or a signing key type (docs/spec.md §4.25)
             * @enum {string}
             */
            readonly type: "aes" | "ec-p256" | "ec-p384" | "ed25519" | "rsa-2048" | "rsa-3072" | "rsa-4096";
            /** @description an aes key's length in bytes */
            readonly keyLen?: 16 | 24 | 32;
            /** @description an aes key's export label */
            readonly algo?: string;
            /**
             * @description a signing key's algorithm: its JWKS names it, sign-jwt uses it
             * @enum {string}
             */
            readonly alg?: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
            /** @description a signing key's: whether its private key may be exported */
            readonly exportable?: boolean;
            /** @description a signing key's: whether its JWKS is served without a session */
            readonly published?: boolean;
            /** @description a signing key's: the longest lifetime of a JWT it signs, seconds */
            readonly jwtMaxLifetime?: number;
            readonly label?: string;
            readonly owner: {
                readonly user: string;
                readonly systemId: number;
                readonly principalId: string;
            };
            /**
             * @description the first that holds of deleted, pending-deletion, expired, disabled, active
             * @enum {string}
             */
            readonly state: "deleted" | "pending-deletion" | "expired" | "disabled" | "active";
            /** Format: date-time */
            readonly createdAt: string;
            /** Format: date-time */
            readonly expiresAt?: string;
            /** @description the newest version: encrypt and MAC use it, export delivers it by default */
            readonly version: number;
            /** @description versions below it are retired */
            readonly minVersion: number;
            /** @description ISO 8601 duration: the key server rotates the key once it has passed */
            readonly rotationPeriod?: string;
            /** Format: date-time */
            readonly nextRotationAt?: string;
            /** @description the key's tags, name to value; {} for none (docs/spec.md §4.23 item 2) */
            readonly tags: {
                readonly [key: string]: string;
            };
            /**
             * Format: date-time
             * @description when the key server destroys the key, while it is pending deletion
             */
            readonly deletionAt?: string;
            /**
             * Format: date-time
             * @description when the key server destroyed the key: only its tombstone remains
             */
            readonly deletedAt?: string;
            /**
             * Format: date-time
             * @description when the key was last used, at most 60 s behind its latest use (docs/spec.md §4.23 item 6); absent until its first use
             */
            readonly lastUsedAt?: string;
            /**
             * @description the use that wrote lastUsedAt
             * @enum {string}
             */
            readonly lastUsedOperation?: "export" | "encrypt" | "decrypt" | "mac" | "mac.verify" | "rewrap" | "datakey" | "datakey.open" | "sign" | "sign.verify" | "sign-jwt";
        };
        readonly Alias: {
            readonly alias: string;
            /** @description standard base64 */
            readonly ttag: string;
            /** Format: date-time */
            readonly createdAt: string;
            /** Format: date-time */
            readonly updatedAt: string;
        };
        readonly Principal: {
            readonly name: string;
            /** @enum {string} */
            readonly kind: "user" | "group" | "service";
            readonly systemId: number;
            readonly principalId: string;
            readonly displayName?: string;
            readonly disabled: boolean;
            readonly roles: readonly string[];
            /** Format: date-time */
            readonly createdAt: string;
            readonly jkt?: string;
            /** @description a service: the principals and groups it may mint delegated sessions for (admin-managed; never one holding admin) */
            readonly delegates?: readonly string[];
            /** @description a principal made by certificate auto-provisioning: the issuing authority certificate id */
            readonly provisionedBy?: string;
        };
        readonly Role: {
            readonly name: string;
            readonly operations: readonly string[];
        };
        readonly Certificate: {
            readonly id: string;
            readonly subject: string;
            readonly issuer: string;
            readonly serial: string;
            /** Format: date-time */
            readonly notBefore: string;
            /** Format: date-time */
            readonly notAfter: string;
            readonly keyAlg: string;
            readonly principal?: string;
            readonly pem: string;
        };
        readonly TrustedIssuer: {
            readonly name: string;
            readonly issuer: string;
            readonly jwksUri?: string;
            readonly jwks?: {
                readonly keys: readonly {
                    readonly [key: string]: unknown;
                }[];
            };
            readonly audiences: readonly string[];
            readonly algorithms: readonly ("RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "ES256" | "ES384" | "ES512" | "EdDSA")[];
            /** @description a template over the token claims, e.g. ci-{repository_id} */
            readonly principal: string;
            readonly createPrincipals: boolean;
            readonly roles: readonly string[];
            readonly boundClaims: {
                readonly [key: string]: string | readonly string[];
            };
            readonly requireJti: boolean;
            readonly maxTokenAge?: number;
            readonly leeway: number;
        };
        readonly ServerParameter: {
            readonly name: string;
            readonly value: number | boolean | string;
            /** @enum {string} */
            readonly type: "integer" | "boolean" | "string";
            readonly description: string;
        };
        readonly ProvisioningPolicy: {
            readonly autoProvision: boolean;
            /** @enum {string} */
            readonly nameAttribute: "CN" | "UID" | "emailAddress";
            readonly defaultRoles: readonly string[];
            readonly defaultGroups: readonly string[];
        };
        readonly AuditRecord: {
            readonly id: string;
            /** Format: date-time */
            readonly at: string;
            readonly requestId: string;
            readonly principal?: string;
            readonly sessionRef?: string;
            readonly operation: string;
            readonly object?: string;
            /** @enum {string} */
            readonly outcome: "ok" | "denied" | "error" | "pending";
            readonly status: number;
            readonly code?: string;
            /** @description the connection's peer address (never a forwarded header) */
            readonly clientAddress?: string;
            /** @description for a delegated session: the service acting for `principal` */
            readonly actingFor?: string;
            /** @description the key version the operation acted on */
            readonly version?: number;
            /** @description a batch's item count */
            readonly items?: number;
            /** @description how many items of a batch failed */
            readonly failures?: number;
            /** @description a batch: every distinct key and version its items named, in the order first named (at most 32); version absent when no answer named it (a failed encrypt or MAC) */
            readonly keys?: readonly {
                /** @description standard base64 */
                readonly ttag: string;
                readonly version?: number;
            }[];
            /** @description a batch that named more distinct keys and versions than `keys` holds: how many more */
            readonly keysOmitted?: number;
            /** @description the alias the request named its key by; `object` is then the ttag it resolved to */
            readonly alias?: string;
            /**
             * @description a signing operation: the key's type (docs/spec.md §4.25 item 8)
             * @enum {string}
             */
            readonly keyType?: "aes" | "ec-p256" | "ec-p384" | "ed25519" | "rsa-2048" | "rsa-3072" | "rsa-4096";
            /**
             * @description a signing operation: the algorithm it used
             * @enum {string}
             */
            readonly alg?: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
            /** @description a signing operation: the key id (RFC 7638 thumbprint) of the version it used */
            readonly kid?: string;
            /** @description the encryption context a single encrypt, decrypt, rewrap, data key or data-key opening named (docs/spec.md §4.5b item 5) */
            readonly context?: {
                readonly [key: string]: string;
            };
            /** @description a batch of those: every distinct non-empty context its items named, in the order first named (at most 16) */
            readonly contexts?: readonly {
                readonly [key: string]: string;
            }[];
            /** @description a batch that named more distinct contexts than `contexts` holds: how many more */
            readonly contextsOmitted?: number;
        };
        readonly AuditVerification: {
            readonly ok: boolean;
            readonly checked: number;
            readonly writers: readonly {
                readonly writer: string;
                readonly entries: number;
                readonly lastSeq: number;
                readonly lastCheckpoint: number | null;
                /** @description the breaks found in this writer's chain, checkpoints and witnessed head */
                readonly breaks: number;
                /** @description how many of them `breaks` does not list (past the first 100 of this writer) */
                readonly unlisted: number;
            }[];
            /** @description every break, writer after writer, each writer's by seq; at most 100 per writer */
            readonly breaks: readonly components["schemas"]["AuditBreak"][];
            /** @description the earliest break in time across writers */
            readonly firstBreak?: components["schemas"]["AuditBreak"];
        };
        readonly AuditBreak: {
            readonly writer: string;
            readonly seq: number;
            readonly id?: string;
            /** @enum {string} */
            readonly kind: "edited" | "deleted" | "inserted" | "reordered" | "truncated" | "forged-checkpoint";
            readonly detail: string;
        };
        readonly Health: {
            readonly ok: boolean;
            readonly ksFingerprint: string;
            readonly sessions: number;
            readonly version: string;
            readonly checks: {
                /** @enum {string} */
                readonly keyServer: "ok" | "unavailable";
                /** @enum {string} */
                readonly auditStore: "ok" | "unavailable";
                /** @enum {string} */
                readonly sessionStore: "ok" | "unavailable";
                /**
                 * @description `conflict`: a store this gateway writes alone had its writer lock removed or replaced
                 * @enum {string}
                 */
                readonly writer: "ok" | "conflict";
                /**
                 * @description workload issuers' key sets (docs/spec.md §4.24 item 6), once one was fetched: `unavailable` while a fetch failed
                 * @enum {string}
                 */
                readonly jwks?: "ok" | "unavailable";
            };
            readonly reasons?: {
                readonly keyServer?: string;
                readonly auditStore?: string;
                readonly writer?: string;
            };
            /** @description each key-server daemon; absent with the embedded key server */
            readonly keyServers?: readonly {
                readonly url: string;
                readonly fingerprint?: string;
                readonly ok: boolean;
            }[];
        };
        readonly RootError: {
            readonly error: string;
            readonly detail?: string;
            readonly reauth?: boolean;
        };
        readonly WrappedKey: {
            readonly wrapped: {
                /** @description standard base64 */
                readonly gatewayPubKey: string;
                /** @description standard base64 */
                readonly salt: string;
                /** @description standard base64 */
                readonly iv: string;
                /** @description standard base64 */
                readonly ciphertext: string;
                /** @description standard base64 */
                readonly authTag: string;
            };
            readonly algo: string;
            readonly keyLen: 16 | 24 | 32;
        };
        readonly Error: {
            /** @enum {string} */
            readonly code: "BAD_REQUEST" | "SESSION_REQUIRED" | "SESSION_UNKNOWN" | "SESSION_EXPIRED" | "WRONG_CREDENTIAL" | "LOGIN_FAILED" | "PROOF_MISSING" | "PROOF_MALFORMED" | "PROOF_ALG_NOT_ALLOWED" | "PROOF_KEY_MISMATCH" | "PROOF_SIGNATURE_REJECTED" | "PROOF_BINDING_MISMATCH" | "PROOF_CLOCK_SKEW" | "PROOF_REPLAYED" | "PROOF_REPLAY_CACHE_FULL" | "ROLE_DENIED" | "DELEGATION_DENIED" | "ACL_DENIED" | "CONTEXT_REQUIRED" | "OUT_OF_SCOPE" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "NOT_SAVED" | "NOT_VERIFIED" | "CONFLICT" | "KEY_EXPIRED" | "KEY_DISABLED" | "KEY_PENDING_DELETION" | "KEY_DELETED" | "KEY_TYPE_MISMATCH" | "KEY_VERSION_RETIRED" | "KEY_VERSIONS_EXHAUSTED" | "KEY_VERSION_NOT_FOUND" | "IDEMPOTENCY_KEY_REUSED" | "DECRYPT_FAILED" | "CERTIFICATE_MALFORMED" | "KEY_SERVER_UNAVAILABLE" | "KEY_SERVER_FAILED" | "SESSION_STORE_UNAVAILABLE" | "AUDIT_UNAVAILABLE" | "RATE_LIMITED" | "SESSION_LIMIT" | "INTERNAL";
            readonly detail: string;
            readonly retryable?: boolean;
            /** @description why, for a 409 CONFLICT: PRINCIPAL_EXISTS (certificate provisioning meets an existing principal), CONCURRENT_CHANGE (a verified write was overtaken by another writer), LAST_ADMIN (the change would leave no administrator), ... */
            readonly reason?: string;
            /** @enum {string} */
            readonly scope?: "session" | "process";
            readonly reauth?: boolean;
            /**
             * @description the write may have taken effect (its call reached the key server, no answer came); absent: the write did not happen
             * @constant
             */
            readonly outcome?: "unknown";
            /** @description with outcome: the read that shows whether the write took effect, e.g. GET /api/principals/alice */
            readonly check?: string;
        };
    };
    responses: {
        /** @description error 400: BAD_REQUEST, PROOF_MALFORMED, DECRYPT_FAILED, CERTIFICATE_MALFORMED */
        readonly BadRequest: {
            headers: {
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "BAD_REQUEST" | "PROOF_MALFORMED" | "DECRYPT_FAILED" | "CERTIFICATE_MALFORMED";
                };
            };
        };
        /** @description error 401: SESSION_REQUIRED, SESSION_UNKNOWN, SESSION_EXPIRED, WRONG_CREDENTIAL, PROOF_MISSING, PROOF_ALG_NOT_ALLOWED, PROOF_KEY_MISMATCH, PROOF_SIGNATURE_REJECTED, PROOF_BINDING_MISMATCH, PROOF_CLOCK_SKEW, PROOF_REPLAYED */
        readonly Unauthorized: {
            headers: {
                /** @description RFC 6750 §3 / RFC 9449 §7.1 challenge; DPoP with algs="ES256 RS256" */
                readonly "WWW-Authenticate"?: string;
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "SESSION_REQUIRED" | "SESSION_UNKNOWN" | "SESSION_EXPIRED" | "WRONG_CREDENTIAL" | "PROOF_MISSING" | "PROOF_ALG_NOT_ALLOWED" | "PROOF_KEY_MISMATCH" | "PROOF_SIGNATURE_REJECTED" | "PROOF_BINDING_MISMATCH" | "PROOF_CLOCK_SKEW" | "PROOF_REPLAYED";
                };
            };
        };
        /** @description error 403: ROLE_DENIED, DELEGATION_DENIED, ACL_DENIED, CONTEXT_REQUIRED, OUT_OF_SCOPE */
        readonly Forbidden: {
            headers: {
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "ROLE_DENIED" | "DELEGATION_DENIED" | "ACL_DENIED" | "CONTEXT_REQUIRED" | "OUT_OF_SCOPE";
                };
            };
        };
        /** @description error 404: NOT_FOUND, KEY_VERSION_NOT_FOUND */
        readonly NotFound: {
            headers: {
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "NOT_FOUND" | "KEY_VERSION_NOT_FOUND";
                };
            };
        };
        /** @description error 409: NOT_SAVED, NOT_VERIFIED, CONFLICT, KEY_EXPIRED, KEY_DISABLED, KEY_PENDING_DELETION, KEY_DELETED, KEY_TYPE_MISMATCH, KEY_VERSION_RETIRED, KEY_VERSIONS_EXHAUSTED */
        readonly Conflict: {
            headers: {
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "NOT_SAVED" | "NOT_VERIFIED" | "CONFLICT" | "KEY_EXPIRED" | "KEY_DISABLED" | "KEY_PENDING_DELETION" | "KEY_DELETED" | "KEY_TYPE_MISMATCH" | "KEY_VERSION_RETIRED" | "KEY_VERSIONS_EXHAUSTED";
                };
            };
        };
        /** @description error 422: IDEMPOTENCY_KEY_REUSED */
        readonly UnprocessableContent: {
            headers: {
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "IDEMPOTENCY_KEY_REUSED";
                };
            };
        };
        /** @description error 500: INTERNAL */
        readonly Internal: {
            headers: {
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "INTERNAL";
                };
            };
        };
        /** @description error 502: KEY_SERVER_FAILED, LOGIN_FAILED */
        readonly KeyServerFailed: {
            headers: {
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "KEY_SERVER_FAILED" | "LOGIN_FAILED";
                };
            };
        };
        /** @description error 503: KEY_SERVER_UNAVAILABLE, SESSION_STORE_UNAVAILABLE, AUDIT_UNAVAILABLE, PROOF_REPLAY_CACHE_FULL */
        readonly Unavailable: {
            headers: {
                /** @description seconds, when the scope is session or process (docs/spec.md §6.1) */
                readonly "Retry-After"?: number;
                readonly [name: string]: unknown;
            };
            content: {
                readonly "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    readonly code?: "KEY_SERVER_UNAVAILABLE" | "SESSION_STORE_UNAVAILABLE" | "AUDIT_UNAVAILABLE" | "PROOF_REPLAY_CACHE_FULL";
                };
            };
        };
    };
    parameters: {
        /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
        readonly DPoP: string;
        /** @description a retry with the same key and request within 24 h answers the first result and creates nothing; the same key with another request is 422 IDEMPOTENCY_KEY_REUSED */
        readonly IdempotencyKey: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    readonly "session.read": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Session"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "session.password": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly user: string;
                    readonly password: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Session"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "session.logout": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 500: components["responses"]["Internal"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "session.certificate.challenge": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly certificate: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly challengeId: string;
                        /** @description 32 bytes, base64url */
                        readonly challenge: string;
                        /** Format: date-time */
                        readonly expiresAt: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "session.certificate": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly challengeId: string;
                    readonly signature: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Session"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "session.jwt": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly issuer?: string;
                    readonly token: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Session"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 500: components["responses"]["Internal"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "session.scoped": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly objects: readonly string[];
                    readonly rights?: readonly ("read" | "export" | "encrypt" | "decrypt" | "mac" | "rotate" | "tag" | "sign")[];
                    readonly senderKey: {
                        readonly [key: string]: unknown;
                    };
                    /** @default 300 */
                    readonly ttlSeconds?: number;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Session"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "session.delegated": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly principal: string;
                } | {
                    readonly certificate: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Session"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "sessions.list": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly {
                            readonly ref: string;
                            /** @enum {string} */
                            readonly kind: "password" | "certificate" | "jwt" | "scoped" | "delegated";
                            readonly bound: boolean;
                            /** Format: date-time */
                            readonly createdAt: string;
                            /** Format: date-time */
                            readonly expiresAt: string;
                        }[];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.encrypt": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** Format: base64 */
                    readonly plaintext: string;
                    /** Format: base64 */
                    readonly aad?: string;
                    /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                    readonly context?: {
                        readonly [key: string]: string;
                    };
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** Format: base64 */
                        readonly plaintext: string;
                        /** Format: base64 */
                        readonly aad?: string;
                        /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                        readonly context?: {
                            readonly [key: string]: string;
                        };
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @description standard base64 */
                        readonly ciphertext: string;
                        /** @description standard base64 */
                        readonly iv: string;
                        /** @description standard base64 */
                        readonly authTag: string;
                        /** @enum {string} */
                        readonly alg: "A128GCM" | "A192GCM" | "A256GCM";
                        /** @description the key version */
                        readonly version: number;
                        /** @description kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5) */
                        readonly sealed: string;
                    } | {
                        readonly items: readonly ({
                            /** @description standard base64 */
                            readonly ciphertext: string;
                            /** @description standard base64 */
                            readonly iv: string;
                            /** @description standard base64 */
                            readonly authTag: string;
                            /** @enum {string} */
                            readonly alg: "A128GCM" | "A192GCM" | "A256GCM";
                            /** @description the key version */
                            readonly version: number;
                            /** @description kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5) */
                            readonly sealed: string;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.decrypt": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** Format: base64 */
                    readonly ciphertext?: string;
                    /** Format: base64 */
                    readonly iv?: string;
                    /** Format: base64 */
                    readonly authTag?: string;
                    /** Format: base64 */
                    readonly aad?: string;
                    readonly version?: number;
                    /** @description instead of ciphertext, iv, authTag and version (beside them only when they say the same): kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5) */
                    readonly sealed?: string;
                    /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                    readonly context?: {
                        readonly [key: string]: string;
                    };
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** Format: base64 */
                        readonly ciphertext?: string;
                        /** Format: base64 */
                        readonly iv?: string;
                        /** Format: base64 */
                        readonly authTag?: string;
                        /** Format: base64 */
                        readonly aad?: string;
                        readonly version?: number;
                        /** @description instead of ciphertext, iv, authTag and version (beside them only when they say the same): kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5) */
                        readonly sealed?: string;
                        /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                        readonly context?: {
                            readonly [key: string]: string;
                        };
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @description standard base64 */
                        readonly plaintext: string;
                    } | {
                        readonly items: readonly ({
                            /** @description standard base64 */
                            readonly plaintext: string;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.rewrap": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** Format: base64 */
                    readonly ciphertext?: string;
                    /** Format: base64 */
                    readonly iv?: string;
                    /** Format: base64 */
                    readonly authTag?: string;
                    /** Format: base64 */
                    readonly aad?: string;
                    readonly version?: number;
                    /** @description instead of ciphertext, iv, authTag and version (beside them only when they say the same): kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5) */
                    readonly sealed?: string;
                    /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                    readonly context?: {
                        readonly [key: string]: string;
                    };
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** Format: base64 */
                        readonly ciphertext?: string;
                        /** Format: base64 */
                        readonly iv?: string;
                        /** Format: base64 */
                        readonly authTag?: string;
                        /** Format: base64 */
                        readonly aad?: string;
                        readonly version?: number;
                        /** @description instead of ciphertext, iv, authTag and version (beside them only when they say the same): kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5) */
                        readonly sealed?: string;
                        /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                        readonly context?: {
                            readonly [key: string]: string;
                        };
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @description standard base64 */
                        readonly ciphertext: string;
                        /** @description standard base64 */
                        readonly iv: string;
                        /** @description standard base64 */
                        readonly authTag: string;
                        /** @enum {string} */
                        readonly alg: "A128GCM" | "A192GCM" | "A256GCM";
                        /** @description the key version */
                        readonly version: number;
                        /** @description kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5) */
                        readonly sealed: string;
                    } | {
                        readonly items: readonly ({
                            /** @description standard base64 */
                            readonly ciphertext: string;
                            /** @description standard base64 */
                            readonly iv: string;
                            /** @description standard base64 */
                            readonly authTag: string;
                            /** @enum {string} */
                            readonly alg: "A128GCM" | "A192GCM" | "A256GCM";
                            /** @description the key version */
                            readonly version: number;
                            /** @description kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5) */
                            readonly sealed: string;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.mac": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** Format: base64 */
                    readonly data: string;
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** Format: base64 */
                        readonly data: string;
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @description standard base64 */
                        readonly mac: string;
                        /** @constant */
                        readonly alg: "HS256";
                        /** @description the key version */
                        readonly version: number;
                    } | {
                        readonly items: readonly ({
                            /** @description standard base64 */
                            readonly mac: string;
                            /** @constant */
                            readonly alg: "HS256";
                            /** @description the key version */
                            readonly version: number;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.mac.verify": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** Format: base64 */
                    readonly data: string;
                    /** Format: base64 */
                    readonly mac: string;
                    readonly version?: number;
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** Format: base64 */
                        readonly data: string;
                        /** Format: base64 */
                        readonly mac: string;
                        readonly version?: number;
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly valid: boolean;
                    } | {
                        readonly items: readonly ({
                            readonly valid: boolean;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.datakey": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** @default 32 */
                    readonly keyLen?: 16 | 24 | 32;
                    /** Format: base64 */
                    readonly clientPubKey?: string;
                    /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                    readonly context?: {
                        readonly [key: string]: string;
                    };
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** @default 32 */
                        readonly keyLen?: 16 | 24 | 32;
                        /** Format: base64 */
                        readonly clientPubKey?: string;
                        /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                        readonly context?: {
                            readonly [key: string]: string;
                        };
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["DataKey"] | {
                        readonly items: readonly ({
                            /** @description the data key sealed under the key version (docs/spec.md §4.5a item 5) */
                            readonly blob: string;
                            /** @description the data key wrapped to clientPubKey (info `keygate datakey v1`, or `v2` to an X-Wing key); only when one was sent */
                            readonly wrapped?: components["schemas"]["ClientWrappedKey"];
                            readonly keyLen: 16 | 24 | 32;
                            /** @description the key version */
                            readonly version: number;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.datakey.open": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** Format: base64 */
                    readonly blob: string;
                    /** Format: base64 */
                    readonly clientPubKey: string;
                    /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                    readonly context?: {
                        readonly [key: string]: string;
                    };
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** Format: base64 */
                        readonly blob: string;
                        /** Format: base64 */
                        readonly clientPubKey: string;
                        /** @description the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret */
                        readonly context?: {
                            readonly [key: string]: string;
                        };
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["DataKeyOpened"] | {
                        readonly items: readonly ({
                            readonly wrapped: components["schemas"]["ClientWrappedKey"];
                            readonly keyLen: 16 | 24 | 32;
                            /** @description the key version */
                            readonly version: number;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.sign": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** @enum {string} */
                    readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                    /** Format: base64 */
                    readonly message?: string;
                    /** Format: base64 */
                    readonly digest?: string;
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** @enum {string} */
                        readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                        /** Format: base64 */
                        readonly message?: string;
                        /** Format: base64 */
                        readonly digest?: string;
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @description standard base64: ECDSA as raw r || s, Ed25519 64 bytes, RSA as long as the modulus */
                        readonly signature: string;
                        /** @enum {string} */
                        readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                        /** @description the key version */
                        readonly version: number;
                        /** @description the version's key id: its public JWK's RFC 7638 thumbprint */
                        readonly kid: string;
                    } | {
                        readonly items: readonly ({
                            /** @description standard base64: ECDSA as raw r || s, Ed25519 64 bytes, RSA as long as the modulus */
                            readonly signature: string;
                            /** @enum {string} */
                            readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                            /** @description the key version */
                            readonly version: number;
                            /** @description the version's key id: its public JWK's RFC 7638 thumbprint */
                            readonly kid: string;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.sign.verify": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    /** @enum {string} */
                    readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                    /** Format: base64 */
                    readonly message?: string;
                    /** Format: base64 */
                    readonly digest?: string;
                    readonly signature: string;
                    readonly version?: number;
                    readonly kid?: string;
                } | {
                    readonly items: readonly {
                        readonly ttag: string;
                        /** @enum {string} */
                        readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                        /** Format: base64 */
                        readonly message?: string;
                        /** Format: base64 */
                        readonly digest?: string;
                        readonly signature: string;
                        readonly version?: number;
                        readonly kid?: string;
                    }[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly valid: boolean;
                        /** @description the version that verified it */
                        readonly version?: number;
                        /** @description the version's key id: its public JWK's RFC 7638 thumbprint */
                        readonly kid?: string;
                    } | {
                        readonly items: readonly ({
                            readonly valid: boolean;
                            /** @description the version that verified it */
                            readonly version?: number;
                            /** @description the version's key id: its public JWK's RFC 7638 thumbprint */
                            readonly kid?: string;
                            /** @constant */
                            readonly ok: true;
                        } | {
                            /** @constant */
                            readonly ok: false;
                            readonly error: {
                                readonly code: string;
                                readonly detail: string;
                            };
                        })[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "crypto.sign-jwt": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    readonly claims: {
                        readonly [key: string]: unknown;
                    };
                    readonly header?: {
                        readonly [key: string]: unknown;
                    };
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @description a compact JWS */
                        readonly jwt: string;
                        /** @enum {string} */
                        readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                        /** @description the key version */
                        readonly version: number;
                        /** @description the version's key id: its public JWK's RFC 7638 thumbprint */
                        readonly kid: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.public-key": {
        readonly parameters: {
            readonly query?: {
                readonly version?: number;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly ttag: string;
                        /** @enum {string} */
                        readonly type: "aes" | "ec-p256" | "ec-p384" | "ed25519" | "rsa-2048" | "rsa-3072" | "rsa-4096";
                        /** @enum {string} */
                        readonly alg: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                        /** @description the key version */
                        readonly version: number;
                        /** @description the version's key id: its public JWK's RFC 7638 thumbprint */
                        readonly kid: string;
                        /** @description the public key as PEM (SPKI) */
                        readonly pem: string;
                        readonly jwk: components["schemas"]["SigningJwk"];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.jwks": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @description every version not retired, newest first */
                        readonly keys: readonly components["schemas"]["SigningJwk"][];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.list": {
        readonly parameters: {
            readonly query?: {
                readonly q?: string;
                readonly tag?: string | readonly string[];
                readonly state?: "deleted" | "pending-deletion" | "expired" | "disabled" | "active";
                readonly owner?: string;
                readonly createdAfter?: string;
                readonly createdBefore?: string;
                readonly limit?: number;
                readonly cursor?: string;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["KeySummary"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.create": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
                /** @description a retry with the same key and request within 24 h answers the first result and creates nothing; the same key with another request is 422 IDEMPOTENCY_KEY_REUSED */
                readonly "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: {
            readonly content: {
                readonly "application/json": {
                    /**
                     * @default aes
                     * @enum {string}
                     */
                    readonly type?: "aes" | "ec-p256" | "ec-p384" | "ed25519" | "rsa-2048" | "rsa-3072" | "rsa-4096";
                    readonly keyLen?: 16 | 24 | 32;
                    /** @enum {string} */
                    readonly alg?: "ES256" | "ES384" | "EdDSA" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";
                    readonly exportable?: boolean;
                    readonly jwtMaxLifetime?: number;
                    readonly label?: string;
                    /** Format: date-time */
                    readonly expiresAt?: string;
                    readonly rotationPeriod?: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 422: components["responses"]["UnprocessableContent"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.read": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.versions": {
        readonly parameters: {
            readonly query?: {
                readonly limit?: number;
                readonly cursor?: string;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["KeyVersion"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.export": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly clientPubKey: string;
                    readonly version?: number;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["WrappedKeyVersion"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.rotate": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
                /** @description a retry with the same key and request within 24 h answers the first result and creates nothing; the same key with another request is 422 IDEMPOTENCY_KEY_REUSED */
                readonly "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 422: components["responses"]["UnprocessableContent"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.min-version": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly minVersion: number;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.publish": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly published: boolean;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.expire": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.disable": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.enable": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.schedule-deletion": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: {
            readonly content: {
                readonly "application/json": {
                    readonly pendingDays?: number;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.cancel-deletion": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Key"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.tag": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly value: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly name: string;
                        readonly value: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "keys.untag": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "acl.read": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly owner: {
                            readonly user: string;
                            readonly systemId: number;
                            readonly principalId: string;
                        };
                        readonly items: readonly {
                            readonly principal: string;
                            readonly rights: readonly ("read" | "export" | "encrypt" | "decrypt" | "mac" | "rotate" | "tag" | "sign")[];
                            readonly conditions?: {
                                readonly context: {
                                    readonly [key: string]: string;
                                };
                            };
                        }[];
                        /** @constant */
                        readonly complete: true;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "acl.put": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
                readonly principal: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly rights: readonly ("read" | "export" | "encrypt" | "decrypt" | "mac" | "rotate" | "tag" | "sign")[];
                    readonly conditions?: {
                        readonly context: {
                            readonly [key: string]: string;
                        };
                    };
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly principal: string;
                        readonly rights: readonly ("read" | "export" | "encrypt" | "decrypt" | "mac" | "rotate" | "tag" | "sign")[];
                        readonly conditions?: {
                            readonly context: {
                                readonly [key: string]: string;
                            };
                        };
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "acl.delete": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
                readonly principal: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "acl.access": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly ttag: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly rights: readonly ("read" | "export" | "encrypt" | "decrypt" | "mac" | "rotate" | "tag" | "sign")[];
                        readonly conditional?: readonly {
                            readonly rights: readonly ("read" | "export" | "encrypt" | "decrypt" | "mac" | "rotate" | "tag" | "sign")[];
                            readonly context: {
                                readonly [key: string]: string;
                            };
                        }[];
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "aliases.list": {
        readonly parameters: {
            readonly query?: {
                readonly ttag?: string;
                readonly prefix?: string;
                readonly limit?: number;
                readonly cursor?: string;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["Alias"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "aliases.put": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly alias: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Alias"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "aliases.delete": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly alias: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "principals.list": {
        readonly parameters: {
            readonly query?: {
                readonly kind?: "user" | "group" | "service";
                readonly limit?: number;
                readonly cursor?: string;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["Principal"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "principals.create": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly name: string;
                    /** @enum {string} */
                    readonly kind: "user" | "group" | "service";
                    readonly displayName?: string;
                    readonly password?: string;
                    readonly roles?: readonly string[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Principal"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "principals.read": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Principal"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "principals.update": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly displayName?: string;
                    readonly disabled?: boolean;
                    readonly roles?: readonly string[];
                    readonly delegates?: readonly string[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Principal"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "principals.delete": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "principals.password": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly currentPassword?: string;
                    readonly password: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "principals.groups": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["Principal"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "principals.senderKey.put": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly jwk: {
                        readonly [key: string]: unknown;
                    };
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly jkt: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "groups.list": {
        readonly parameters: {
            readonly query?: {
                readonly limit?: number;
                readonly cursor?: string;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["Principal"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "groups.members.list": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["Principal"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "groups.members.add": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
                readonly member: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "groups.members.remove": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
                readonly member: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "roles.list": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["Role"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "roles.read": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly role: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Role"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "roles.put": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly role: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly operations: readonly string[];
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Role"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "certificates.list": {
        readonly parameters: {
            readonly query?: {
                readonly subject?: string;
                readonly principal?: string;
                readonly limit?: number;
                readonly cursor?: string;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["Certificate"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "certificates.read": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly id: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Certificate"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "certificates.parse": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly pem: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Certificate"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "certificates.verify": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly pem: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly trusted: boolean;
                        readonly chain: readonly string[];
                        readonly reason?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "trust.authorities.list": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["Certificate"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "trust.authorities.add": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly pem: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Certificate"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "trust.authorities.delete": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly id: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "trust.enrollments.add": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly principal: string;
                    readonly pem: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 201: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Certificate"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "trust.issuers.list": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["TrustedIssuer"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "trust.issuers.read": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["TrustedIssuer"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "trust.issuers.put": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly issuer: string;
                    readonly jwksUri?: string;
                    readonly jwks?: {
                        readonly keys: readonly {
                            readonly [key: string]: unknown;
                        }[];
                    };
                    readonly audiences: readonly string[];
                    readonly algorithms: readonly ("RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "ES256" | "ES384" | "ES512" | "EdDSA")[];
                    readonly principal: string;
                    /** @default false */
                    readonly createPrincipals?: boolean;
                    /** @default [] */
                    readonly roles?: readonly string[];
                    /** @default {} */
                    readonly boundClaims?: {
                        readonly [key: string]: string | readonly string[];
                    };
                    /** @default false */
                    readonly requireJti?: boolean;
                    readonly maxTokenAge?: number;
                    /** @default 30 */
                    readonly leeway?: number;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["TrustedIssuer"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "trust.issuers.delete": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 204: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content?: never;
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "server.version": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly keyServer: string;
                        readonly gateway: string;
                        readonly api: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "server.config": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly [key: string]: unknown;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "server.parameters.list": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["ServerParameter"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "server.parameters.put": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly name: "tokenTtlSeconds" | "loginHandshakeSeconds" | "maxPendingLogins";
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly value: number | boolean | string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["ServerParameter"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "policy.provisioning.read": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["ProvisioningPolicy"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "policy.provisioning.write": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly parameter: "autoProvision" | "nameAttribute" | "defaultRoles" | "defaultGroups";
            };
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly value: unknown;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["ProvisioningPolicy"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "audit.query": {
        readonly parameters: {
            readonly query?: {
                readonly from?: string;
                readonly to?: string;
                readonly principal?: string;
                readonly operation?: string;
                readonly outcome?: "ok" | "denied" | "error" | "pending";
                readonly object?: string;
                readonly limit?: string;
                readonly cursor?: string;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly items: readonly components["schemas"]["AuditRecord"][];
                        readonly complete: boolean;
                        readonly reason?: string;
                        readonly next?: string;
                    };
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "audit.verify": {
        readonly parameters: {
            readonly query?: {
                readonly from?: string;
                readonly to?: string;
            };
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["AuditVerification"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly "audit.get": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path: {
                readonly id: string;
            };
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["AuditRecord"];
                };
            };
            readonly 400: components["responses"]["BadRequest"];
            readonly 401: components["responses"]["Unauthorized"];
            readonly 403: components["responses"]["Forbidden"];
            readonly 404: components["responses"]["NotFound"];
            readonly 409: components["responses"]["Conflict"];
            readonly 500: components["responses"]["Internal"];
            readonly 502: components["responses"]["KeyServerFailed"];
            readonly 503: components["responses"]["Unavailable"];
        };
    };
    readonly health: {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Health"];
                };
            };
            readonly 500: components["responses"]["Internal"];
            /** @description the same body, a check failed */
            readonly 503: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    readonly openapi: {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description the OpenAPI 3.1 document */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": Record<string, never>;
                };
            };
        };
    };
    readonly "root.login": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly user: string;
                    readonly password: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly sessionId: string;
                        readonly user: string;
                        readonly systemId: number;
                        readonly principalId: string;
                        /** @constant */
                        readonly hasToken: true;
                    };
                };
            };
            /** @description error */
            readonly 400: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 401: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 502: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
        };
    };
    readonly "root.logout": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @constant */
                        readonly ok: true;
                    };
                };
            };
            /** @description error */
            readonly 401: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 500: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
        };
    };
    readonly "root.keys.generate": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: {
            readonly content: {
                readonly "application/json": Record<string, never>;
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @description standard base64 */
                        readonly ttag: string;
                    };
                };
            };
            /** @description error */
            readonly 400: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 401: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 403: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 500: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
        };
    };
    readonly "root.keys.export": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    readonly clientPubKey: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["WrappedKey"];
                };
            };
            /** @description error */
            readonly 400: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 401: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 403: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 500: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
        };
    };
    readonly "root.keys.grant": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    readonly grantee: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @constant */
                        readonly ok: true;
                        readonly grantee: {
                            readonly user: string;
                            readonly systemId: number;
                            readonly principalId: string;
                        };
                    };
                };
            };
            /** @description error */
            readonly 400: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 401: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 403: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 500: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
        };
    };
    readonly "root.keys.revoke": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: {
                /** @description RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session */
                readonly DPoP?: components["parameters"]["DPoP"];
            };
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody: {
            readonly content: {
                readonly "application/json": {
                    readonly ttag: string;
                    readonly grantee: string;
                };
            };
        };
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        /** @constant */
                        readonly ok: true;
                    };
                };
            };
            /** @description error */
            readonly 400: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 401: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 403: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
            /** @description error */
            readonly 500: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
        };
    };
    readonly "root.health": {
        readonly parameters: {
            readonly query?: never;
            readonly header?: never;
            readonly path?: never;
            readonly cookie?: never;
        };
        readonly requestBody?: never;
        readonly responses: {
            /** @description success */
            readonly 200: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": {
                        readonly ok: boolean;
                        readonly ksFingerprint: string;
                        readonly sessions: number;
                        /** @description each key-server daemon; absent with the embedded key server */
                        readonly keyServers?: readonly {
                            readonly url: string;
                            readonly fingerprint?: string;
                            readonly ok: boolean;
                        }[];
                    };
                };
            };
            /** @description error */
            readonly 500: {
                headers: {
                    readonly [name: string]: unknown;
                };
                content: {
                    readonly "application/json": components["schemas"]["RootError"];
                };
            };
        };
    };
}
