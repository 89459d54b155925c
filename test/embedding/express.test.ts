import type { IncomingMessage } from 'node:http';
import test from 'ava';
import express from 'express';
import { listenHttp } from '../../src/app/http-listener.js';
import { clientKeyPair } from '../_support/client-key.js';
import { call } from '../_support/http.js';
import { boundExport, dpopClient, embeddableGateway } from './embedded-gateway.js';

type Setup = (app: express.Express, gateway: ReturnType<Awaited<ReturnType<typeof embeddableGateway>>['app']['callback']>) => void;

/** The gateway mounted at /kg of a real Express app, set up by `setup`, on a real socket. */
async function hostedByExpress(t: { teardown(fn: () => Promise<void>): void }, setup: Setup) {
  const gateway = await embeddableGateway();
  t.teardown(() => gateway.close());
  const app = express();
  setup(app, gateway.app.callback());
  app.post('/echo', (req, res) => void res.json({ echoed: req.body }));
  const listener = await listenHttp(app, 0, '127.0.0.1');
  t.teardown(async () => void (await listener.drain(1000)));
  return { url: listener.url, base: `${listener.url}/kg` };
}

test("Express app.use('/kg') before express.json(): a DPoP-bound export works", async (t) => {
  const { base, url } = await hostedByExpress(t, (app, kg) => {
    app.use('/kg', kg);
    app.use(express.json());
  });
  const client = await dpopClient();
  const key = clientKeyPair();
  const run = await boundExport(base, base, client, key.publicKey);
  t.is(run.exported.status, 200, run.exported.text);
  t.is(key.unwrap(run.exported.body.wrapped).length, 16);
  t.deepEqual((await call(url, 'POST', '/echo', { body: { a: 1 } })).body, { echoed: { a: 1 } }, 'the host parses its own bodies');
});

test('after express.json({ verify }) keeping req.rawBody, the gateway uses those bytes (bth holds)', async (t) => {
  const { base } = await hostedByExpress(t, (app, kg) => {
    app.use(
      express.json({
        verify: (req: IncomingMessage & { rawBody?: Buffer }, _res, buf) => {
          req.rawBody = buf;
        },
      }),
    );
    app.use('/kg', kg);
  });
  const client = await dpopClient();
  const key = clientKeyPair();
  const run = await boundExport(base, base, client, key.publicKey);
  t.is(run.login.status, 201, run.login.text);
  t.is(run.exported.status, 200, run.exported.text);
  t.is(key.unwrap(run.exported.body.wrapped).length, 16);
  const tampered = await client.send(base, base, 'POST', run.path, run.session, { clientPubKey: key.publicKey, extra: 1 });
  t.is(tampered.status, 400, 'the kept body is parsed and validated like a read one');
});

test('after a plain express.json(), a body is refused with an error that says what to change', async (t) => {
  const { base } = await hostedByExpress(t, (app, kg) => {
    app.use(express.json());
    app.use('/kg', kg);
  });
  const login = await call(base, 'POST', '/api/session', { body: { user: 'alice', password: 'x' } });
  t.is(login.status, 500);
  t.is(login.body.code, 'INTERNAL');
  t.regex(login.body.detail, /express\.json\(\)/);
  t.regex(login.body.detail, /rawBody/);
  t.is((await call(base, 'GET', '/api/health')).status, 200, 'a request without a body is unaffected');
});

test('401 answers carry WWW-Authenticate challenges (RFC 6750 §3, RFC 9449 §7.1)', async (t) => {
  const { base } = await hostedByExpress(t, (app, kg) => void app.use('/kg', kg));
  const none = await call(base, 'GET', '/api/session');
  t.is(none.status, 401);
  t.is(none.headers.get('www-authenticate'), 'Bearer realm="keygate", DPoP realm="keygate", algs="ES256 RS256"');
  const unknown = await call(base, 'GET', '/api/session', { headers: { Authorization: 'Bearer kg_nope' } });
  t.regex(unknown.headers.get('www-authenticate') ?? '', /^Bearer realm="keygate", error="invalid_token", error_description="[^"]+"$/);
  const dpopUnknown = await call(base, 'GET', '/api/session', { headers: { Authorization: 'DPoP kg_nope' } });
  t.is(dpopUnknown.body.code, 'SESSION_UNKNOWN', 'the DPoP scheme carries the session id like Bearer');
  t.regex(dpopUnknown.headers.get('www-authenticate') ?? '', /^DPoP realm="keygate", error="invalid_token", .*algs="ES256 RS256"$/);
  const client = await dpopClient();
  const key = clientKeyPair();
  const run = await boundExport(base, base, client, key.publicKey);
  const missing = await call(base, 'GET', '/api/session', { headers: { Authorization: `DPoP ${run.session}` } });
  t.is(missing.body.code, 'PROOF_MISSING');
  t.regex(
    missing.headers.get('www-authenticate') ?? '',
    /^DPoP realm="keygate", error="invalid_dpop_proof", error_description="[^"]+", algs="ES256 RS256"$/,
  );
  const bearerOk = await call(base, 'GET', '/api/session', { headers: { Authorization: `DPoP ${run.login.body.sessionId}` } });
  t.is(bearerOk.status, 200, 'an unbound session is accepted under the DPoP scheme as under Bearer');
});
