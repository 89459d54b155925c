import { readFileSync } from 'node:fs';
import test from 'ava';
import { startGateway } from '../_support/gateway.js';

test('openapi.json is the document the routes generate (run `npm run openapi` after changing a route)', async (t) => {
  const gw = await startGateway(t);
  const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
  t.deepEqual(committed, gw.gateway.openApi());
});

test('every operation in the document answers on its path (no 404), and only those', async (t) => {
  const gw = await startGateway(t);
  const doc = gw.gateway.openApi() as { paths: Record<string, Record<string, { security: unknown[] }>> };
  for (const [path, operations] of Object.entries(doc.paths)) {
    const concrete = path.replace(/\{\w+\}/g, 'AAAAAAAAAAAAAAAAAAAAAA');
    for (const method of Object.keys(operations)) {
      const reply = await gw.call(method.toUpperCase(), concrete);
      t.not(reply.status, 404, `${method} ${path}`);
      t.not(reply.status, 405, `${method} ${path}`);
    }
  }
});
