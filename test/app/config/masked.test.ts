import test from 'ava';
import { MASK, maskedConfig } from '../../../src/app/config/masked.js';

test('masks secret fields, fields named for a password or a key, private keys and URL credentials; keeps the rest', (t) => {
  const masked = maskedConfig({
    port: 8080,
    tokenTtlSeconds: 60,
    replayCacheKeyShare: 5,
    keyServer: {
      kind: 'tls',
      url: 'https://ks.example:8443',
      clientKey: '-----BEGIN PRIVATE KEY-----\nabc\n',
      masterKeyFile: '/keys/master',
    },
    auditIntegrity: { trustedKeys: ['-----BEGIN PUBLIC KEY-----'], signingKey: 'pem' },
    sessionStore: { kind: 'redis', url: 'redis://:pw@h:6379', sessionKeys: ['k1', 'k2'], keyPrefix: 'keygate:' },
    other: { endpoint: 'https://user:hunter2@example.com/x', note: 'holds -----BEGIN EC PRIVATE KEY----- text' },
  });
  t.deepEqual(masked, {
    port: 8080,
    tokenTtlSeconds: 60,
    replayCacheKeyShare: 5,
    keyServer: { kind: 'tls', url: 'https://ks.example:8443', clientKey: MASK, masterKeyFile: '/keys/master' },
    auditIntegrity: { trustedKeys: [MASK], signingKey: MASK },
    sessionStore: { kind: 'redis', url: MASK, sessionKeys: [MASK, MASK], keyPrefix: 'keygate:' },
    other: { endpoint: `https://${MASK}@example.com/x`, note: MASK },
  });
});
