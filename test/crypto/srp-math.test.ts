import { randomBytes } from 'node:crypto';
import test from 'ava';
import { SRP_GROUP_2048 } from '../../src/crypto/srp/srp-group.js';
import { modPow } from '../../src/crypto/srp/srp-math.js';

// RFC 5054 Appendix B: the 1024-bit group, g = 2, with the published intermediate values. The
// hashes there are SHA-1, so k, x and u are taken as given; every exponentiation is ours.
const hex = (value: string) => BigInt(`0x${value.replace(/\s+/g, '')}`);
const N = hex(`EEAF0AB9 ADB38DD6 9C33F80A FA8FC5E8 60726187 75FF3C0B 9EA2314C 9C256576 D674DF74 96EA81D3 383B4813 D692C6E0
  E0D5D8E2 50B98BE4 8E495C1D 6089DAD1 5DC7D7B4 6154D6B6 CE8EF4AD 69B15D49 82559B29 7BCF1885 C529F566 660E57EC
  68EDBC3C 05726CC0 2FD4CBF4 976EAA9A FD5138FE 8376435B 9FC61D2F C0EB06E3`);
const k = hex('7556AA045AEF2CDD07ABAF0F665C3E818913186F');
const x = hex('94B7555AABE9127CC58CCF4993DB6CF84D16C124');
const v = hex(`7E273DE8 696FFC4F 4E337D05 B4B375BE B0DDE156 9E8FA00A 9886D812 9BADA1F1 822223CA 1A605B53 0E379BA4 729FDC59
  F105B478 7E5186F5 C671085A 1447B52A 48CF1970 B4FB6F84 00BBF4CE BFBB1681 52E08AB5 EA53D15C 1AFF87B2 B9DA6E04
  E058AD51 CC72BFC9 033B564E 26480D78 E955A5E2 9E7AB245 DB2BE315 E2099AFB`);
const a = hex('60975527035CF2AD1989806F0407210BC81EDC04E2762A56AFD529DDDA2D4393');
const b = hex('E487CB59D31AC550471E81F00F6928E01DDA08E974A004F49E61F5D105284D20');
const A = hex(`61D5E490 F6F1B795 47B0704C 436F523D D0E560F0 C64115BB 72557EC4 4352E890 3211C046 92272D8B 2D1A5358 A2CF1B6E
  0BFCF99F 921530EC 8E393561 79EAE45E 42BA92AE ACED8251 71E1E8B9 AF6D9C03 E1327F44 BE087EF0 6530E69F 66615261
  EEF54073 CA11CF58 58F0EDFD FE15EFEA B349EF5D 76988A36 72FAC47B 0769447B`);
const B = hex(`BD0C6151 2C692C0C B6D041FA 01BB152D 4916A1E7 7AF46AE1 05393011 BAF38964 DC46A067 0DD125B9 5A981652 236F99D9
  B681CBF8 7837EC99 6C6DA044 53728610 D0C6DDB5 8B318885 D7D82C7F 8DEB75CE 7BD4FBAA 37089E6F 9C6059F3 88838E7A
  00030B33 1EB76840 910440B1 B27AAEAE EB4012B7 D7665238 A8E3FB00 4B117B58`);
const u = hex('CE38B9593487DA98554ED47D70A7AE5F462EF019');
const S = hex(`B0DC82BA BCF30674 AE450C02 87745E79 90A3381F 63B387AA F271A10D 233861E3 59B48220 F7C4693C 9AE12B0A 6F67809F
  0876E2D0 13800D6C 41BB59B6 D5979B5C 00A172B4 A2A5903A 0BDCAF8A 709585EB 2AFAFA8F 3499B200 210DCC1F 10EB3394
  3CD67FC8 8A2F39A4 BE5BEC4E C0A3212D C346D7E4 74B29EDE 8A469FFE CA686E5A`);

/** base^exponent mod modulus in plain BigInt arithmetic: the reference the OpenSSL powers are held to. */
function squareAndMultiply(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let square = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * square) % modulus;
    square = (square * square) % modulus;
  }
  return result;
}

test('every exponentiation of RFC 5054 Appendix B comes out as published', (t) => {
  t.is(modPow(2n, x, N), v);
  t.is(modPow(2n, a, N), A);
  t.is((k * v + modPow(2n, b, N)) % N, B);
  const clientBase = (((B - ((k * modPow(2n, x, N)) % N)) % N) + N) % N;
  t.is(modPow(clientBase, a + u * x, N), S);
  t.is(modPow((A * modPow(v, u, N)) % N, b, N), S);
});

test('the 2048-bit group agrees with a plain square-and-multiply on random values', (t) => {
  const { N: N2 } = SRP_GROUP_2048;
  for (let i = 1n; i <= 5n; i++) {
    const base = (N2 / 7n) * i + 12345n;
    const exponent = (1n << 255n) + i * 0x1234567n;
    t.is(modPow(base, exponent, N2), squareAndMultiply(base, exponent, N2));
  }
});

test('a degenerate base (0, 1, N - 1) is refused rather than answered (RFC 5054 §2.5.4)', (t) => {
  const { N: N2 } = SRP_GROUP_2048;
  for (const base of [0n, 1n, N2, N2 + 1n, N2 - 1n]) t.throws(() => modPow(base, 5n, N2), { instanceOf: RangeError });
});

test('a process first raises modulo 3N, then modulo N, and both give the power modulo N', (t) => {
  // 1,100 powers of the RFC 5054 1024-bit group: past the first 512 (modulo 3N, no primality test
  // to pay), so the later ones come from the context modulo N; every one against square-and-multiply.
  const random = (bytes: number) => BigInt(`0x${randomBytes(bytes).toString('hex')}`);
  const wrong: string[] = [];
  for (let i = 0; i < 1100; i++) {
    const base = 2n + (random(128) % (N - 3n));
    const exponent = 1n + random(8);
    if (modPow(base, exponent, N) !== squareAndMultiply(base, exponent, N)) wrong.push(`power ${i}: ${base}^${exponent}`);
  }
  t.deepEqual(wrong, []);
});
