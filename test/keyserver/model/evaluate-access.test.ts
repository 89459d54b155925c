import test from 'ava';
import type { KeyAccessList, Requester } from '../../../src/keyserver/model/acl.js';
import { conditionalGrants, decideAccess, effectiveRights, grantedRights, isOwner } from '../../../src/keyserver/model/evaluate-access.js';
import type { GrantConditions, Right } from '../../../src/wire/acl.js';
import type { EncryptionContext } from '../../../src/wire/encryption-context.js';

const acl: KeyAccessList = {
  owner: 'owner',
  entries: new Map<string, readonly Right[]>([
    ['bob', ['read', 'export']],
    ['ops', ['encrypt']],
  ]),
  conditions: new Map(),
};

const cases: [string, Requester, Right[]][] = [
  [
    'the owner holds every right',
    { principalId: 'owner', groupIds: [] },
    ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate', 'tag', 'sign'],
  ],
  ['a grantee holds its entry', { principalId: 'bob', groupIds: [] }, ['read', 'export']],
  ['a member holds its group entry too', { principalId: 'bob', groupIds: ['ops'] }, ['read', 'export', 'encrypt']],
  ['a group member alone holds the group entry', { principalId: 'dan', groupIds: ['ops'] }, ['encrypt']],
  ['a stranger holds nothing', { principalId: 'eve', groupIds: [] }, []],
];

for (const [title, requester, rights] of cases) {
  test(`effective rights: ${title}`, (t) => {
    t.deepEqual(effectiveRights(acl, requester), rights);
  });
}

test('only the owner is the owner; export needs the export right', (t) => {
  t.true(isOwner(acl, { principalId: 'owner', groupIds: [] }));
  t.false(isOwner(acl, { principalId: 'bob', groupIds: [] }));
  t.deepEqual(decideAccess(acl, { principalId: 'bob', groupIds: [] }, 'export'), { held: true });
  t.deepEqual(decideAccess(acl, { principalId: 'dan', groupIds: ['ops'] }, 'export'), { held: false });
});

// docs/spec.md §4.5b item 4: carol's own entry is conditioned (tenant acme); group `blue` gives decrypt
// with another condition, group `red` encrypt unconditioned; the owner is never conditioned.
const when = (context: EncryptionContext): GrantConditions => ({ context });
const conditioned: KeyAccessList = {
  owner: 'owner',
  entries: new Map<string, readonly Right[]>([
    ['carol', ['encrypt', 'decrypt', 'mac']],
    ['blue', ['decrypt', 'read']],
    ['red', ['encrypt']],
  ]),
  conditions: new Map([
    ['carol', when({ tenant: 'acme', stage: 'prod' })],
    ['blue', when({ team: 'blue' })],
  ]),
};
const carol: Requester = { principalId: 'carol', groupIds: ['blue', 'red'] };
const carolAlone: Requester = { principalId: 'carol', groupIds: [] };

const decisions: [string, Requester, Right, EncryptionContext | undefined, ReturnType<typeof decideAccess>][] = [
  ['a met condition gives its rights', carolAlone, 'decrypt', { tenant: 'acme', stage: 'prod' }, { held: true }],
  ['a context holding more than the condition meets it', carolAlone, 'mac', { tenant: 'acme', stage: 'prod', x: 'y' }, { held: true }],
  ['no context names every member', carolAlone, 'decrypt', undefined, { held: false, unmet: ['stage', 'tenant'] }],
  [
    'another value names the member, never the value',
    carolAlone,
    'decrypt',
    { tenant: 'evil', stage: 'prod' },
    { held: false, unmet: ['tenant'] },
  ],
  ['a right no entry gives stays denied', carolAlone, 'export', { tenant: 'acme', stage: 'prod' }, { held: false }],
  ['an unconditioned group entry serves without a context', carol, 'encrypt', undefined, { held: true }],
  ['a group entry whose condition is met serves', carol, 'decrypt', { team: 'blue' }, { held: true }],
  ['unmet names of every conditioned entry giving the right', carol, 'decrypt', {}, { held: false, unmet: ['stage', 'team', 'tenant'] }],
  ['only the entries giving the right count', carol, 'mac', { team: 'blue' }, { held: false, unmet: ['stage', 'tenant'] }],
  ['the owner is never conditioned', { principalId: 'owner', groupIds: [] }, 'decrypt', undefined, { held: true }],
  ['a stranger is denied', { principalId: 'eve', groupIds: ['red'] }, 'decrypt', { tenant: 'acme' }, { held: false }],
];

for (const [title, requester, right, context, decision] of decisions) {
  test(`conditions: ${title}`, (t) => {
    t.deepEqual(decideAccess(conditioned, requester, right, context), decision);
  });
}

test('conditions: rights held without a condition, every granted right, and the conditioned entries in order', (t) => {
  t.deepEqual(effectiveRights(conditioned, carol), ['encrypt']);
  t.deepEqual(grantedRights(conditioned, carol), ['read', 'encrypt', 'decrypt', 'mac']);
  t.deepEqual(conditionalGrants(conditioned, carol), [
    { rights: ['encrypt', 'decrypt', 'mac'], context: { tenant: 'acme', stage: 'prod' } },
    { rights: ['read', 'decrypt'], context: { team: 'blue' } },
  ]);
  t.deepEqual(conditionalGrants(conditioned, { principalId: 'owner', groupIds: ['blue'] }), []);
  t.deepEqual(grantedRights(conditioned, { principalId: 'eve', groupIds: [] }), []);
});
