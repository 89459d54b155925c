import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import test from 'ava';
import { BUNDLE_LIMITS } from '../../src/keyserver/engine/certificate-limits.js';
import { buildPath, parseBundle } from '../../src/keyserver/engine/certificate-path.js';
import {
  bundle,
  createAuthority,
  createIntermediate,
  createLeaf,
  nameConstraints,
  rsaKeyPair,
  unknownExtension,
} from '../_support/certificates.js';

const malformed = { code: 'CERTIFICATE_MALFORMED' };

test('parseBundle refuses, before any path is built, bundles over the size, count and DER limits', async (t) => {
  const root = await createAuthority('limits root');
  const leaf = await createLeaf(root, 'limits');
  const intermediates = await Promise.all([1, 2, 3, 4, 5].map((index) => createIntermediate(root, `limits ${index}`)));
  const bulky = await createLeaf(root, 'bulky', {
    extensions: [new x509.Extension('1.3.6.1.4.1.55555.2', false, new Uint8Array(BUNDLE_LIMITS.derBytes))],
  });
  const cases: Array<[string, string, RegExp]> = [
    ['more characters than the limit', `${leaf.pem}${' '.repeat(BUNDLE_LIMITS.pemChars)}`, /at most 65536 characters/],
    ['six certificates', bundle(leaf, ...intermediates), /at most 5 certificates/],
    ['a certificate over the DER limit', bulky.pem, /larger than 8192 bytes/],
    [
      'an intermediate with a 1024-bit RSA key',
      bundle(leaf, await createIntermediate(root, 'weak', { publicKey: rsaKeyPair(1024).publicKey })),
      /intermediate 1 has an RSA key of 1024 bits/,
    ],
  ];
  for (const [title, pem, detail] of cases) {
    const error = t.throws(() => parseBundle(pem), { ...malformed }, title);
    t.regex(error?.message ?? '', detail, title);
  }
  t.is(parseBundle(bundle(leaf, ...intermediates.slice(0, 4))).intermediates.length, 4, 'the leaf and four intermediates are accepted');
});

test('buildPath refuses unknown critical extensions anywhere on the path and names outside an authority subtree', async (t) => {
  const root = await createAuthority('table root', { pathLength: 3 });
  const anchors = [new X509Certificate(root.pem)];
  const constrained = await createIntermediate(root, 'table CA', {
    subject: 'O=Partner Ltd, CN=Table CA',
    extensions: [nameConstraints({ permitted: [{ dn: 'O=Partner Ltd' }] })],
  });
  const odd = await createIntermediate(root, 'odd CA', { extensions: [unknownExtension()] });
  const constrainedRoot = await createAuthority('constrained root', {
    extensions: [nameConstraints({ excluded: [{ dns: 'blocked.example' }] })],
  });
  const cases: Array<[string, string, readonly X509Certificate[], RegExp | undefined]> = [
    [
      'a critical unknown extension on the leaf',
      (await createLeaf(root, 'a', { extensions: [unknownExtension()] })).pem,
      anchors,
      /critical extension/,
    ],
    ['a critical unknown extension on an intermediate', bundle(await createLeaf(odd, 'b'), odd), anchors, /critical extension/],
    [
      'a subject outside the permitted subtree',
      bundle(await createLeaf(constrained, 'c', { subject: 'CN=c, O=Partner Ltd' }), constrained),
      anchors,
      /permitted subtrees/,
    ],
    [
      'a subject inside the permitted subtree',
      bundle(await createLeaf(constrained, 'd', { subject: 'O=Partner Ltd, CN=d' }), constrained),
      anchors,
      undefined,
    ],
    [
      "the anchor's own excluded subtree",
      (await createLeaf(constrainedRoot, 'e', { san: [{ type: 'dns', value: 'x.blocked.example' }] })).pem,
      [new X509Certificate(constrainedRoot.pem)],
      /excluded/,
    ],
  ];
  for (const [title, pem, trust, refusal] of cases) {
    const { leaf, intermediates } = parseBundle(pem);
    const result = await buildPath(leaf, intermediates, trust, Date.now());
    if (refusal === undefined) t.true(result.trusted, title);
    else t.regex(result.trusted ? 'trusted' : result.reason, refusal, title);
  }
});
