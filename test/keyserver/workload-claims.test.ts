import test from 'ava';
import { claimAt, globMatches, renderPrincipal, unmetBoundClaim } from '../../src/keyserver/model/workload-claims.js';

const CLAIMS = {
  sub: 'system:serviceaccount:payments:billing',
  repository_id: '123456789',
  run_number: 42,
  groups: ['deployers', 'readers'],
  'kubernetes.io': { namespace: 'payments', serviceaccount: { name: 'billing' } },
};

test('a claim path walks nested claims by /, and finds nothing past a missing step or through a list', (t) => {
  t.is(claimAt(CLAIMS, 'kubernetes.io/serviceaccount/name'), 'billing');
  t.is(claimAt(CLAIMS, 'kubernetes.io/pod/name'), undefined);
  t.is(claimAt(CLAIMS, 'groups/0'), undefined);
  t.is(claimAt(CLAIMS, 'constructor'), undefined);
});

test('a template gives a principal name from strings and integers, or says why it cannot', (t) => {
  const cases: [string, { name: string } | { refusal: RegExp }][] = [
    ['gh-{repository_id}', { name: 'gh-123456789' }],
    ['run-{run_number}', { name: 'run-42' }],
    ['k8s-{kubernetes.io/namespace}-{kubernetes.io/serviceaccount/name}', { name: 'k8s-payments-billing' }],
    ['{sub}', { refusal: /not give a principal name/ }],
    ['{groups}', { refusal: /groups is not a string/ }],
    ['{missing}', { refusal: /missing is not a string/ }],
    ['{kubernetes.io}', { refusal: /kubernetes\.io is not a string/ }],
  ];
  for (const [template, expected] of cases) {
    const rendered = renderPrincipal(template, CLAIMS);
    if ('name' in expected) t.deepEqual(rendered, expected, template);
    else t.regex('refusal' in rendered ? rendered.refusal : '', expected.refusal, template);
  }
});

test('a glob matches * as any run of characters and every other character as itself', (t) => {
  const cases: [string, string, boolean][] = [
    ['refs/tags/v*', 'refs/tags/v1.2.0', true],
    ['refs/tags/v*', 'refs/heads/main', false],
    ['refs/heads/main', 'refs/heads/main', true],
    ['refs/heads/main', 'refs/heads/mainline', false],
    ['a.b', 'axb', false],
    ['*', '', true],
    ['(x)+', '(x)+', true],
    ['*-prod', 'eu-prod', true],
  ];
  for (const [pattern, value, matches] of cases) t.is(globMatches(pattern, value), matches, `${pattern} ~ ${value}`);
});

test('bound claims must all match; a list claim matches when any of its strings does', (t) => {
  t.is(unmetBoundClaim({ 'kubernetes.io/namespace': ['payments', 'billing-*'], groups: 'deploy*' }, CLAIMS), undefined);
  t.is(unmetBoundClaim({ groups: 'admins' }, CLAIMS), 'groups');
  t.is(unmetBoundClaim({ run_number: '42' }, CLAIMS), 'run_number', 'a number is not a string');
  t.is(unmetBoundClaim({ absent: '*' }, CLAIMS), 'absent');
});
