import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';

/** The exposition's label values: every `name="value"` pair of every sample line. */
function labelValues(scrape: string): string[] {
  return [...scrape.matchAll(/[a-z_]+="([^"]*)"/g)].map((match) => match[1]!);
}

test('metrics listener: requests, key-server calls, audit writes, sessions, probes and process metrics, no identifying label', async (t) => {
  const gw = await startGateway(t, { metricsPort: 0, audit: { kind: 'memory' }, throttleNameFailures: 1 });
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice);
  t.is((await alice.get(`/api/keys/${pathTtag(key.ttag)}`)).status, 200);
  t.is((await gw.call('GET', '/health')).status, 200);
  // One wrong password for bob, then bob must wait: the second try is throttled (429) and counted.
  const wrong = { body: { user: 'bob', password: `${PASSWORDS.bob}-wrong` } };
  t.is((await gw.call('POST', '/api/session', wrong)).status, 401);
  t.is((await gw.call('POST', '/api/session', wrong)).status, 429);

  const url = gw.gateway.metricsUrl();
  t.truthy(url);
  t.not(new URL(url!).port, new URL(gw.url).port, 'a listener of its own');
  const response = await fetch(url!);
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /text\/plain/);
  const scrape = await response.text();
  t.regex(scrape, /keygate_http_requests_total\{operation="keys\.create",status="201"\} 1/);
  t.regex(scrape, /keygate_http_request_duration_seconds_bucket\{le="[^"]+",operation="keys\.read"\}/);
  t.regex(scrape, /keygate_keyserver_call_duration_seconds_count\{method="generateKey",outcome="ok"\} 1/);
  t.regex(scrape, /keygate_audit_write_duration_seconds_count\{kind="append",outcome="ok"\} \d+/);
  t.regex(scrape, /keygate_sessions_live 1/);
  t.regex(scrape, /keygate_replay_cache_entries 0/);
  t.regex(scrape, /keygate_health_probes_total\{outcome="ok"\} 1/);
  t.regex(scrape, /keygate_http_requests_total\{operation="health",status="200"\} 1/, 'a probe is named though it is not audited');
  t.regex(scrape, /keygate_logins_throttled_total 1/);
  t.regex(scrape, /process_cpu_user_seconds_total/);
  const values = labelValues(scrape);
  for (const secret of ['alice', 'bob', alice.sessionId, key.ttag, pathTtag(key.ttag), '127.0.0.1']) {
    t.false(
      values.some((value) => value.includes(secret)),
      `no label carries ${secret}`,
    );
  }
  t.is((await fetch(url!.replace('/metrics', '/api/keys'))).status, 404);
});

test('a failing key-server call is counted by its code', async (t) => {
  const gw = await startGateway(t, { metricsPort: 0 });
  const alice = await signIn(gw, 'alice');
  t.is((await alice.get(`/api/keys/${pathTtag(Buffer.alloc(16, 7).toString('base64'))}`)).status, 404);
  const scrape = await (await fetch(gw.gateway.metricsUrl()!)).text();
  t.regex(scrape, /keygate_keyserver_call_errors_total\{method="readKey",code="NOT_FOUND"\} 1/);
  t.regex(scrape, /keygate_http_requests_total\{operation="keys\.read",status="404"\} 1/);
});

test('without a metrics port there is no metrics listener', async (t) => {
  const gw = await startGateway(t);
  t.is(gw.gateway.metricsUrl(), undefined);
  t.is((await gw.call('GET', '/metrics')).status, 404);
});
