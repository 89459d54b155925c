import { checkPrimeSync } from 'node:crypto';
import test from 'ava';
import { SRP_GROUP_2048 } from '../../src/crypto/srp/srp-group.js';
import { multiplier, pad, toBigInt } from '../../src/crypto/srp/srp-math.js';
import { srpCreateVerifier } from '../../src/crypto/srp/srp-verifier.js';
import { srpClientProve, srpClientStart, srpClientVerifyServer } from '../../src/domain/srp/srp-client.js';
import { srpServerStart, srpServerVerify } from '../../src/keyserver/model/srp-server.js';
import { SeededRandom } from '../_support/seeded-random.js';

const random = new SeededRandom('srp');
const { N } = SRP_GROUP_2048;

test('the group modulus is the RFC 5054 2048-bit safe prime', (t) => {
  t.is(N.toString(2).length, 2048);
  t.true(checkPrimeSync(N, { checks: 8 }));
  t.true(checkPrimeSync((N - 1n) / 2n, { checks: 8 }));
});

function exchange(password: string, verifierPassword = password) {
  const verifier = srpCreateVerifier('alice', verifierPassword, random);
  const client = srpClientStart(random);
  const server = srpServerStart(verifier.verifier, random);
  const proof = srpClientProve({ user: 'alice', password, salt: verifier.salt, B: server.B, ephemeral: client });
  return { verifier, client, server, proof };
}

test('client and server agree on the key and prove it to each other', (t) => {
  const { verifier, client, server, proof } = exchange('correct horse');
  const result = srpServerVerify({
    user: 'alice',
    salt: verifier.salt,
    verifier: verifier.verifier,
    A: client.A,
    M1: proof.M1,
    ephemeral: server,
  });
  t.deepEqual(result.K, proof.K);
  t.true(srpClientVerifyServer(proof, result.M2));
});

test('a wrong password fails at the server with WRONG_CREDENTIAL', (t) => {
  const { verifier, client, server, proof } = exchange('wrong', 'right');
  const error = t.throws(() =>
    srpServerVerify({ user: 'alice', salt: verifier.salt, verifier: verifier.verifier, A: client.A, M1: proof.M1, ephemeral: server }),
  );
  t.is((error as { code?: string }).code, 'WRONG_CREDENTIAL');
  t.is((error as Error).message, 'credential refused: wrong user name or password');
});

test('the server refuses A = 0 and A = N (RFC 5054 §2.6)', (t) => {
  const { verifier, server, proof } = exchange('pw');
  for (const A of [0n, N, 2n * N]) {
    t.throws(() =>
      srpServerVerify({ user: 'alice', salt: verifier.salt, verifier: verifier.verifier, A, M1: proof.M1, ephemeral: server }),
    );
  }
});

test('the client refuses B = 0 mod N', (t) => {
  const client = srpClientStart(random);
  for (const B of [0n, N]) {
    t.throws(() => srpClientProve({ user: 'alice', password: 'pw', salt: Buffer.alloc(16), B, ephemeral: client }));
  }
});

test('a server that does not hold the verifier cannot produce M2', (t) => {
  const { proof } = exchange('pw');
  t.false(srpClientVerifyServer(proof, Buffer.alloc(32)));
});

test('padding keeps every value at the group length', (t) => {
  t.is(pad(SRP_GROUP_2048, 5n).length, 256);
  t.is(toBigInt(pad(SRP_GROUP_2048, 5n)), 5n);
});

test('a client value A that makes the server base degenerate is refused as a wrong credential', (t) => {
  const verifier = srpCreateVerifier('alice', 'pw', random);
  const server = srpServerStart(verifier.verifier, random);
  // A = N - 1 gives A * v^u = +-1 for even u; A = 1 gives v^u, both refused or harmless but never a 500.
  for (const A of [1n, N - 1n]) {
    const error = t.throws(() =>
      srpServerVerify({ user: 'alice', salt: verifier.salt, verifier: verifier.verifier, A, M1: Buffer.alloc(32), ephemeral: server }),
    );
    t.is((error as { code?: string }).code, 'WRONG_CREDENTIAL');
  }
});

test('a server value B = k*g^x + 1 (degenerate client base) is refused as a protocol error', (t) => {
  const verifier = srpCreateVerifier('alice', 'pw', random);
  const client = srpClientStart(random);
  const k = multiplier(SRP_GROUP_2048);
  const B = (k * toBigInt(verifier.verifier) + 1n) % N;
  const error = t.throws(() => srpClientProve({ user: 'alice', password: 'pw', salt: verifier.salt, B, ephemeral: client }));
  t.is((error as { code?: string }).code, 'WRONG_CREDENTIAL');
});
