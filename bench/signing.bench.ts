import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createGateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import { startBareKoa } from './floors.js';
import { type LoadClient, noFailures, ratioTo } from './load-client.js';
import { type Figure, pairedFigure, rps } from './table.js';

/** The goals (docs/spec.md §4.25): a signature through the gateway at half the rate of one made in place; a published JWKS at 0.8 of bare Koa. */
const SIGN_GOAL = 0.5;
const JWKS_GOAL = 0.8;
/** The one message every signature row signs: a JWT's signing input is about this long. */
const MESSAGE = Buffer.alloc(200, 'm');

/** The node:crypto call that makes the same signature as the key server for `alg` (ECDSA as JOSE's r || s). */
const NODE_SIGN = {
  ES256: (key: KeyObject) => sign('sha256', MESSAGE, { key, dsaEncoding: 'ieee-p1363' }),
  EdDSA: (key: KeyObject) => sign(null, MESSAGE, key),
} as const;

/**
 * The signing rows (docs/spec.md §4.25 items 3, 7), on one gateway (embedded key server, deployed
 * logging): `POST /api/crypto/sign` of one 200-byte message with an ec-p256 (ES256) and an ed25519
 * (EdDSA) key, each beside bare Koa making the same signature in place with `node:crypto` (a key pair of
 * the same type) and answering it; and `GET /jwks/{alias}.json` of a published key with two versions
 * beside bare Koa answering the same JSON. Rounds alternate floor and row; the median round is shown.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...DEPLOYED },
    { logger: deployedLogger() },
  );
  const floors: { close(): void }[] = [];
  try {
    const { url } = await gateway.listen(0, '127.0.0.1');
    const headers = { 'content-type': 'application/json', Authorization: `Bearer ${await signIn(url)}` };
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
      return answer.json() as Promise<Record<string, unknown>>;
    };
    const rows: Figure[] = [];
    for (const [type, alg] of [
      ['ec-p256', 'ES256'],
      ['ed25519', 'EdDSA'],
    ] as const) {
      const { ttag } = (await call('POST', '/api/keys', { type })) as { ttag: string };
      const body = JSON.stringify({ ttag, alg, message: MESSAGE.toString('base64') });
      const answer = await call('POST', '/api/crypto/sign', JSON.parse(body));
      const key = inPlaceKeyOf(type);
      const floor = await startBareKoa(answer, () => NODE_SIGN[alg](key).length > 0);
      floors.push(floor);
      const paired = await load.paired(
        { name: `bare Koa signing ${alg} in place`, job: { url: floor.url } },
        { name: `POST /api/crypto/sign ${alg}`, job: { url: `${url}/api/crypto/sign`, method: 'POST', headers, body } },
        ratioTo,
      );
      noFailures(paired.row, paired.floor);
      const floorText = `bare Koa + node:crypto ${alg} sign: ${rps(paired.floor)}`;
      const figure = pairedFigure(`POST /api/crypto/sign, ${alg}, one 200-byte message`, paired, floorText, {
        op: '>=',
        target: SIGN_GOAL,
        unit: 'x',
      });
      rows.push({ ...figure, note: `${figure.note}; ${await encryptBeside(load, url, headers, call)}` });
    }
    rows.push(await publishedJwksFigure(load, url, call, floors));
    return rows;
  } finally {
    for (const floor of floors) floor.close();
    await gateway.close();
  }
}

/**
 * Not judged, said beside the sign rows: `POST /api/crypto/encrypt` of the same 200 bytes on the same
 * gateway, the /api cryptography path with the cheapest work in the key server.
 */
async function encryptBeside(
  load: LoadClient,
  url: string,
  headers: Record<string, string>,
  call: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>,
): Promise<string> {
  const { ttag } = (await call('POST', '/api/keys', {})) as { ttag: string };
  const body = JSON.stringify({ ttag, plaintext: MESSAGE.toString('base64') });
  const run = await load.run('POST /api/crypto/encrypt, 200 bytes', { url: `${url}/api/crypto/encrypt`, method: 'POST', headers, body });
  noFailures(run);
  return `POST /api/crypto/encrypt of the same 200 bytes on this gateway: ${rps(run)}`;
}

/** A published ec-p256 key of two versions named by an alias, its JWKS served at /jwks/{alias}.json beside bare Koa serving the same JSON. */
async function publishedJwksFigure(
  load: LoadClient,
  url: string,
  call: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>,
  floors: { close(): void }[],
): Promise<Figure> {
  const { ttag } = (await call('POST', '/api/keys', { type: 'ec-p256' })) as { ttag: string };
  const path = Buffer.from(ttag, 'base64').toString('base64url');
  await call('POST', `/api/keys/${path}/rotate`);
  await call('PUT', `/api/keys/${path}/published`, { published: true });
  await call('PUT', '/api/aliases/bench-issuer', { ttag });
  const published = await fetch(`${url}/jwks/bench-issuer.json`);
  if (published.status !== 200) throw new Error(`GET /jwks/bench-issuer.json: ${published.status}`);
  const floor = await startBareKoa((await published.json()) as Record<string, unknown>);
  floors.push(floor);
  const paired = await load.paired(
    { name: 'bare Koa answering the JWKS', job: { url: floor.url } },
    { name: 'GET /jwks/{alias}.json', job: { url: `${url}/jwks/bench-issuer.json` } },
    ratioTo,
  );
  noFailures(paired.row, paired.floor);
  return pairedFigure('GET /jwks/{alias}.json, 2 versions', paired, `bare Koa, the same JSON: ${rps(paired.floor)}`, {
    op: '>=',
    target: JWKS_GOAL,
    unit: 'x',
  });
}

/** A key pair of the type, made here for the floor: the floor signs as the key server does, with its own key. */
function inPlaceKeyOf(type: 'ec-p256' | 'ed25519'): KeyObject {
  return type === 'ec-p256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey : generateKeyPairSync('ed25519').privateKey;
}
