import { createECDH } from 'node:crypto';
import { createGateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import { type LoadClient, noFailures, ratioTo } from './load-client.js';
import { type Figure, pairedFigure, rps } from './table.js';

/** The goal: data keys at least half as many a second as exports of the same key. */
const GOAL = 0.5;

/**
 * The data-key row (docs/spec.md §4.5a): `POST /api/crypto/datakey` with a `clientPubKey` (a fresh
 * data key sealed in its blob and wrapped to the caller's P-256 point, its audit record stored before
 * the key server is asked) beside `POST /api/keys/{ttag}/export` of the same 32-byte key to the same
 * point on the same gateway (embedded key server, deployed logging, admin session): the export is the
 * same request shape, session, audit and wrap (§3.2), so what the row adds is the data key's making
 * and its seal. Rounds alternate (export, then datakey); the median round is shown.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...DEPLOYED },
    { logger: deployedLogger() },
  );
  try {
    const { url } = await gateway.listen(0, '127.0.0.1');
    const headers = { 'content-type': 'application/json', Authorization: `Bearer ${await signIn(url)}` };
    const created = await fetch(`${url}/api/keys`, { method: 'POST', headers, body: JSON.stringify({ keyLen: 32 }) });
    if (created.status !== 201) throw new Error(`POST /api/keys: ${created.status} ${await created.text()}`);
    const { ttag } = (await created.json()) as { ttag: string };
    const client = createECDH('prime256v1');
    client.generateKeys();
    const clientPubKey = client.getPublicKey('base64');
    const exportPath = `/api/keys/${Buffer.from(ttag, 'base64').toString('base64url')}/export`;
    const paired = await load.paired(
      {
        name: 'POST /api/keys/{ttag}/export',
        job: { url: `${url}${exportPath}`, method: 'POST', headers, body: JSON.stringify({ clientPubKey }) },
      },
      {
        name: 'POST /api/crypto/datakey',
        job: { url: `${url}/api/crypto/datakey`, method: 'POST', headers, body: JSON.stringify({ ttag, keyLen: 32, clientPubKey }) },
      },
      ratioTo,
    );
    noFailures(paired.row, paired.floor);
    const figure = pairedFigure(
      'POST /api/crypto/datakey, 32 bytes wrapped to a P-256 point',
      paired,
      `POST /api/keys/{ttag}/export, same key and point: ${rps(paired.floor)}`,
      { op: '>=', target: GOAL, unit: 'x' },
    );
    return [{ ...figure, measured: `${paired.row.requestsPerSecond.toFixed(0)} data keys/s` }];
  } finally {
    await gateway.close();
  }
}
