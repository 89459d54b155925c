#!/usr/bin/env node
// A tiny client-side helper for the README walkthrough (plain Node, no dependencies):
//   node examples/kg.mjs field NAME        read JSON on stdin, print one field (a.b for nested)
//   node examples/kg.mjs keypair FILE      make an ephemeral P-256 keypair, keep the private key in FILE,
//                                          print the raw public point (base64) for clientPubKey
//   node examples/kg.mjs unwrap FILE       read an export response on stdin, open it with FILE's key,
//                                          print the key length and the key's SHA-256 (never the key)
import { createDecipheriv, createECDH, createHash, hkdfSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const [command, arg] = process.argv.slice(2);
const stdin = () => JSON.parse(readFileSync(0, 'utf8'));

if (command === 'field') {
  const value = arg.split('.').reduce((v, k) => v?.[k], stdin());
  if (value === undefined) {
    process.stderr.write(`no field ${arg}\n`);
    process.exit(1);
  }
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
} else if (command === 'keypair') {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  writeFileSync(arg, ecdh.getPrivateKey('base64'), { mode: 0o600 });
  process.stdout.write(`${ecdh.getPublicKey('base64')}\n`);
} else if (command === 'unwrap') {
  const { wrapped, keyLen, algo } = stdin();
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(readFileSync(arg, 'utf8').trim(), 'base64');
  const shared = ecdh.computeSecret(Buffer.from(wrapped.gatewayPubKey, 'base64'));
  const aesKey = Buffer.from(hkdfSync('sha256', shared, Buffer.from(wrapped.salt, 'base64'), 'keygate export v1', 32));
  const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(wrapped.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(wrapped.authTag, 'base64'));
  const key = Buffer.concat([decipher.update(Buffer.from(wrapped.ciphertext, 'base64')), decipher.final()]);
  const digest = createHash('sha256').update(key).digest('hex');
  process.stdout.write(`unwrapped a ${key.length}-byte key (keyLen ${keyLen}, algo ${algo}), sha256 ${digest}\n`);
} else {
  process.stderr.write('usage: kg.mjs field NAME | keypair FILE | unwrap FILE\n');
  process.exit(2);
}
