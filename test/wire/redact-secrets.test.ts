import test from 'ava';
import { redactSecrets } from '../../src/wire/redact-secrets.js';

test('redacts secret-named settings at any depth and keeps the rest', (t) => {
  const config = {
    adminPassword: 'hunter2',
    tokenTtlSeconds: 60,
    tls: { keyPem: '-----BEGIN PRIVATE KEY-----', certPem: 'public', clientSecret: 's' },
    stores: [{ url: 'sqlite:x', passphrase: 'p' }],
    unset: undefined,
  };
  t.deepEqual(redactSecrets(config), {
    adminPassword: '[redacted]',
    tokenTtlSeconds: 60,
    tls: { keyPem: '[redacted]', certPem: 'public', clientSecret: '[redacted]' },
    stores: [{ url: 'sqlite:x', passphrase: '[redacted]' }],
  });
});
