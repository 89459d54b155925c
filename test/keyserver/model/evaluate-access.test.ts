import test from 'ava';
import { canUse, effectiveRights, isOwner } from '../../../src/keyserver/model/evaluate-access.js';
import type { Right } from '../../../src/wire/acl.js';

const acl = {
  owner: 'owner',
  entries: new Map<string, readonly Right[]>([
    ['bob', ['read', 'export']],
    ['ops', ['encrypt']],
  ]),
};

const cases: [string, { principalId: string; groupIds: string[] }, Right[]][] = [
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
  t.true(canUse(acl, { principalId: 'bob', groupIds: [] }, 'export'));
  t.false(canUse(acl, { principalId: 'dan', groupIds: ['ops'] }, 'export'));
});
