import test, { type ExecutionContext } from 'ava';
import { startGateway } from '../_support/gateway.js';

type Parameter = { name: string; in: string; schema: { enum?: string[]; pattern?: string; maxLength?: number } };
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

async function pathParameter(t: ExecutionContext, path: string, method: string, name: string): Promise<Parameter['schema']> {
  const gw = await startGateway(t);
  t.teardown(() => gw.close());
  const doc = gw.gateway.openApi() as Document;
  const parameter = doc.paths[path]?.[method]?.parameters?.find((candidate) => candidate.in === 'path' && candidate.name === name);
  if (parameter === undefined) throw new Error(`${method} ${path} has no path parameter ${name}`);
  return parameter.schema;
}

test('{parameter} of the provisioning policy lists its four names', async (t) => {
  const schema = await pathParameter(t, '/api/policy/provisioning/{parameter}', 'put', 'parameter');
  t.deepEqual([...(schema.enum ?? [])].sort(), ['autoProvision', 'defaultGroups', 'defaultRoles', 'nameAttribute']);
});

test('{name} of a server parameter lists the key server parameters', async (t) => {
  const schema = await pathParameter(t, '/api/server/parameters/{name}', 'put', 'name');
  t.deepEqual([...(schema.enum ?? [])].sort(), ['loginHandshakeSeconds', 'maxPendingLogins', 'tokenTtlSeconds']);
});

test('{role} carries the role-name pattern, the one the key server checks', async (t) => {
  for (const method of ['get', 'put']) {
    const schema = await pathParameter(t, '/api/roles/{role}', method, 'role');
    t.is(schema.pattern, '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', method);
    const pattern = new RegExp(schema.pattern!);
    t.true(pattern.test('auditor.v2'));
    t.false(pattern.test('-leading-dash'));
    t.false(pattern.test('a'.repeat(65)));
  }
});
