import { createHash, createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { startCliGateway } from '../_support/cli-gateway.js';
import { killAllGateways } from '../_support/gateway-process.js';

/**
 * `keygate keys create --type`, `keys public-key|jwks|publish`, `keygate sign|verify|sign-jwt`
 * (docs/spec.md §4.25), through the real binary and a gateway process; the signatures the CLI writes
 * are checked with node:crypto and jose.
 */
const cli = await startCliGateway('signing');
test.after.always(killAllGateways);
const { dir, keygate } = cli;

test('keys create --type makes a signing key; keygate sign writes a signature node:crypto verifies with keys public-key --pem', async (t) => {
  const env = await cli.signInAdmin();
  const created = await keygate(['keys', 'create', '--type', 'ec-p256', '--jwt-max-lifetime', '600', '--json'], env);
  t.is(created.status, 0, created.stderr);
  const key = JSON.parse(created.stdout) as { ttag: string };
  t.like(key, { type: 'ec-p256', alg: 'ES256', exportable: false, jwtMaxLifetime: 600 });

  const file = join(dir, 'message.txt');
  writeFileSync(file, 'a message signed by the CLI');
  const sigFile = join(dir, 'message.sig');
  const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
  const [signed, printed, pem] = await Promise.all([
    keygate(['sign', key.ttag, '--alg', 'ES256', '--in', file, '--out', sigFile], env),
    keygate(['sign', key.ttag, '--alg', 'ES256', '--digest-hex', digest], env),
    keygate(['keys', 'public-key', key.ttag, '--pem'], env),
  ]);
  t.is(signed.status, 0, signed.stderr);
  t.is(signed.stdout, `wrote the ES256 signature of version 1 to ${sigFile}\n`);
  t.is(pem.status, 0, pem.stderr);
  t.regex(pem.stdout, /^-----BEGIN PUBLIC KEY-----\n/);
  const publicKey = createPublicKey(pem.stdout);
  const signature = readFileSync(sigFile);
  t.is(signature.length, 64);
  t.true(verify('sha256', readFileSync(file), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature));
  t.is(printed.status, 0, printed.stderr);
  const overDigest = Buffer.from(printed.stdout.trim(), 'base64');
  t.true(
    verify('sha256', readFileSync(file), { key: publicKey, dsaEncoding: 'ieee-p1363' }, overDigest),
    "the file's SHA-256 given as --digest-hex signs the file",
  );

  const [valid, invalid, asB64] = await Promise.all([
    keygate(['verify', key.ttag, '--alg', 'ES256', '--in', file, '--signature', sigFile], env),
    keygate(['verify', key.ttag, '--alg', 'ES256', '--in', sigFile, '--signature', sigFile], env),
    keygate(['verify', key.ttag, '--alg', 'ES256', '--in', file, '--signature-b64', signature.toString('base64'), '--json'], env),
  ]);
  t.is(valid.status, 0, valid.stderr);
  t.regex(valid.stdout, /^valid \(version 1, kid [A-Za-z0-9_-]{43}\)\n$/);
  t.is(invalid.status, 1);
  t.is(invalid.stdout, 'invalid\n');
  t.like(JSON.parse(asB64.stdout), { valid: true, version: 1 });
});

test('keygate sign-jwt prints a JWT jose verifies against keys jwks, and keys publish serves that JWKS without a session', async (t) => {
  const env = await cli.signInAdmin();
  const key = JSON.parse((await keygate(['keys', 'create', '--type', 'ed25519', '--json'], env)).stdout) as { ttag: string };
  const issued = await keygate(['sign-jwt', key.ttag, '--claims', '{"sub":"cli","aud":"tests"}', '--header', '{"typ":"at+jwt"}'], env);
  t.is(issued.status, 0, issued.stderr);
  const jwt = issued.stdout.trim();
  t.like(decodeProtectedHeader(jwt), { alg: 'EdDSA', typ: 'at+jwt' });
  t.like(decodeJwt(jwt), { sub: 'cli', aud: 'tests' });

  const jwks = await keygate(['keys', 'jwks', key.ttag], env);
  t.is(jwks.status, 0, jwks.stderr);
  const set = JSON.parse(jwks.stdout) as { keys: { kid: string }[] };
  t.is(set.keys.length, 1);
  t.like((await jwtVerify(jwt, createLocalJWKSet(set), { audience: 'tests' })).payload, { sub: 'cli' });

  const published = await keygate(['keys', 'publish', key.ttag], env);
  t.is(published.status, 0, published.stderr);
  const url = /^published at (\S+)\n$/.exec(published.stdout)?.[1];
  t.truthy(url, published.stdout);
  const served = await fetch(url!);
  t.is(served.status, 200);
  t.deepEqual(await served.json(), set);
  const withdrawn = await keygate(['keys', 'publish', key.ttag, '--off'], env);
  t.is(withdrawn.stdout, 'not published\n');
  t.like(JSON.parse((await keygate(['keys', 'show', key.ttag, '--json'], env)).stdout), { published: false });
  // A gateway may answer from a copy at most 1 s old (docs/spec.md §4.25 item 7): an alias never fetched shows the withdrawal at once.
  t.is((await keygate(['aliases', 'set', 'cli-withdrawn', key.ttag], env)).status, 0);
  t.is((await fetch(url!.replace(/\/jwks\/keys\/[^/]+\.json$/, '/jwks/cli-withdrawn.json'))).status, 404);
});

test('the signing commands refuse a bad command line before asking the gateway, and each is in --help', async (t) => {
  const env = await cli.signInAdmin();
  const refusals: [string[], RegExp][] = [
    [['keys', 'create', '--type', 'dsa'], /--type is one of aes, ec-p256/],
    [['keys', 'create', '--type', 'ec-p256', '--alg', 'HS256'], /--alg is one of ES256/],
    [['keys', 'create', '--type', 'ec-p256', '--jwt-max-lifetime', 'soon'], /--jwt-max-lifetime is a whole number/],
    [['sign', 'AAAA', '--alg', 'ES256'], /give --in FILE or --digest-hex HEX/],
    [['sign', 'AAAA', '--alg', 'ES256', '--digest-hex', 'xyz'], /--digest-hex is an even number of hex digits/],
    [['sign', 'AAAA', '--in', '/dev/null'], /--alg is one of/],
    [['verify', 'AAAA', '--alg', 'ES256', '--in', '/dev/null'], /give --signature FILE or --signature-b64 S/],
    [['sign-jwt', 'AAAA'], /--claims JSON is required/],
    [['sign-jwt', 'AAAA', '--claims', '[1]'], /--claims is not a JSON object/],
  ];
  const runs = await Promise.all(refusals.map(([args]) => keygate(args, env)));
  refusals.forEach(([args, message], i) => {
    t.is(runs[i]!.status, 2, args.join(' '));
    t.regex(runs[i]!.stderr, message, args.join(' '));
  });
  const [keysHelp, signHelp, verifyHelp, jwtHelp, topHelp] = await Promise.all(
    [['keys', '--help'], ['sign', '--help'], ['verify', '--help'], ['sign-jwt', '--help'], ['--help']].map((args) => keygate(args)),
  );
  for (const line of [/create --type ec-p256/, /public-key TTAG \[--version N\] \[--pem\]/, /jwks TTAG/, /publish TTAG \[--off\]/])
    t.regex(keysHelp.stdout, line);
  t.regex(signHelp.stdout, /keygate sign TTAG --alg A \(--in FILE \| --digest-hex HEX\) \[--out FILE\]/);
  t.regex(verifyHelp.stdout, /--signature FILE \| --signature-b64 S/);
  t.regex(jwtHelp.stdout, /keygate sign-jwt TTAG --claims JSON/);
  for (const name of ['sign ', 'verify ', 'sign-jwt ']) t.true(topHelp.stdout.includes(`  ${name}`), name);
});

test('keys export of an exportable signing key writes its PKCS#8 (DER), the public key the gateway answers', async (t) => {
  const env = await cli.signInAdmin();
  const key = JSON.parse((await keygate(['keys', 'create', '--type', 'ec-p256', '--exportable', '--json'], env)).stdout) as {
    ttag: string;
  };
  const out = join(dir, 'signing.der');
  const exported = await keygate(['keys', 'export', key.ttag, '--out', out], env);
  t.is(exported.status, 0, exported.stderr);
  t.regex(exported.stdout, /^wrote the ec-p256 private key \(PKCS#8 DER, \d+ bytes\) of version 1 to /);
  const derived = createPublicKey(createPrivateKey({ key: readFileSync(out), format: 'der', type: 'pkcs8' })).export({
    format: 'pem',
    type: 'spki',
  });
  t.is(derived, (await keygate(['keys', 'public-key', key.ttag, '--pem'], env)).stdout);
});
