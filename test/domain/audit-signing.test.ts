import test from 'ava';
import { AUDIT_KID_MAX, auditSigningFields } from '../../src/domain/audit/audit-signing.js';
import { KEY_TYPES, SIGNING_ALGS } from '../../src/wire/key-type.js';

const KID = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';

test('every key type and algorithm, and a base64url kid up to its bound, are recorded as given', (t) => {
  for (const keyType of KEY_TYPES) t.deepEqual(auditSigningFields({ keyType }), { keyType });
  for (const alg of SIGNING_ALGS) t.deepEqual(auditSigningFields({ alg }), { alg });
  const longest = 'A'.repeat(AUDIT_KID_MAX);
  t.deepEqual(auditSigningFields({ keyType: 'ed25519', alg: 'EdDSA', kid: KID }), { keyType: 'ed25519', alg: 'EdDSA', kid: KID });
  t.deepEqual(auditSigningFields({ kid: longest }), { kid: longest });
  t.deepEqual(auditSigningFields({}), {});
});

test('a value outside its rule is left out, the others kept', (t) => {
  const refused = [
    { keyType: 'rsa-1024' },
    { keyType: 'EC-P256' },
    { alg: 'none' },
    { alg: 'HS256' },
    { alg: 'es256' },
    { kid: '' },
    { kid: 'A'.repeat(AUDIT_KID_MAX + 1) },
    { kid: 'a+b/c=' },
    { kid: `${KID}\u0000` },
    { kid: 'ab\ud800' },
    { kid: 'two words' },
    { kid: 'line\nbreak' },
  ];
  const good: Record<string, string> = { keyType: 'ec-p256', alg: 'ES256', kid: KID };
  for (const about of refused) {
    t.deepEqual(auditSigningFields(about), {}, JSON.stringify(about));
    const kept = Object.fromEntries(Object.entries(good).filter(([name]) => !(name in about)));
    t.deepEqual(auditSigningFields({ ...good, ...about }), kept, JSON.stringify(about));
  }
});
