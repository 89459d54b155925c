import test from 'ava';
import { configFromEnv } from '../../src/app/env-config.js';

const PG = 'postgres://keygate:pw@127.0.0.1:5432/audit';

test('TE_GATEWAY_AUDIT_TIMEOUT_MS bounds PostgreSQL audit calls, 2000 ms by default, and applies only with an audit URL', (t) => {
  const byDefault = configFromEnv({ TE_GATEWAY_AUDIT_URL: PG });
  t.like(byDefault.audit, { kind: 'postgres', timeoutMs: 2_000 });
  t.like(configFromEnv({ TE_GATEWAY_AUDIT_URL: PG, TE_GATEWAY_AUDIT_TIMEOUT_MS: '750' }).audit, { timeoutMs: 750 });
  t.throws(() => configFromEnv({ TE_GATEWAY_AUDIT_TIMEOUT_MS: '750' }), { message: /TE_GATEWAY_AUDIT_TIMEOUT_MS: applies only with TE_GATEWAY_AUDIT_URL/ });
  t.throws(() => configFromEnv({ TE_GATEWAY_AUDIT_URL: PG, TE_GATEWAY_AUDIT_TIMEOUT_MS: '0' }), { message: /TE_GATEWAY_AUDIT_TIMEOUT_MS/ });
});

test('TE_GATEWAY_METRICS_PORT turns the metrics listener on; unset, it is off', (t) => {
  t.is(configFromEnv({}).metricsPort, undefined);
  t.is(configFromEnv({ TE_GATEWAY_METRICS_PORT: '9464' }).metricsPort, 9464);
  t.throws(() => configFromEnv({ TE_GATEWAY_METRICS_PORT: '70000' }), { message: /TE_GATEWAY_METRICS_PORT/ });
});
