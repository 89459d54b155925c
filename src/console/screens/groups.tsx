import { useEffect, useState } from 'preact/hooks';
import type { ConsoleApi, ListView, PrincipalView } from '../console-api.js';
import { Field, Pager, Section, Submit, Table, TaskState, usePages, useTask, when } from '../ui.js';

/** Groups: the list, a page at a time (docs/spec.md §4.9 item 1); a group's members: show, add, remove. */
export function Groups({ api }: { api: ConsoleApi }) {
  const [page, setPage] = useState<ListView<PrincipalView> | undefined>(undefined);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const task = useTask();
  const load = (cursor?: string) =>
    task.run(async () => setPage(await api.groups(cursor === undefined ? { limit: 50 } : { limit: 50, cursor })));
  const pages = usePages(load);
  useEffect(() => void load(), []);
  return (
    <>
      <Section title="Groups" id="groups">
        <TaskState task={task} what="Loading groups" />
        {page === undefined ? null : page.items.length === 0 ? (
          <p class="muted">No groups: create one under Principals (kind group).</p>
        ) : (
          <Table id="groups-list" columns={['name', 'roles', 'created', 'state', '']}>
            {page.items.map((group) => (
              <tr key={group.name} data-group={group.name}>
                <td>
                  {group.name}
                  {group.displayName === undefined ? null : <span class="muted"> ({group.displayName})</span>}
                </td>
                <td>{group.roles.join(', ') || <span class="muted">none</span>}</td>
                <td>{when(group.createdAt)}</td>
                <td>{group.disabled ? 'disabled' : 'enabled'}</td>
                <td>
                  <button type="button" onClick={() => setOpen(group.name)} disabled={open === group.name}>
                    Members
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager next={page?.next} reason={page?.reason} onNext={pages.forward} />
      </Section>
      {open === undefined ? null : <GroupMembers key={open} api={api} group={open} />}
    </>
  );
}

/** One group's members: the list, add one by name, remove one. */
function GroupMembers({ api, group }: { api: ConsoleApi; group: string }) {
  const [members, setMembers] = useState<ListView<PrincipalView> | undefined>(undefined);
  const [member, setMember] = useState('');
  const task = useTask();
  const load = () => task.run(async () => setMembers(await api.members(group)));
  useEffect(() => void load(), [group]);
  const add = async (event: Event) => {
    event.preventDefault();
    await task.run(() => api.addMember(group, member.trim()));
    await load();
  };
  const remove = async (name: string) => {
    await task.run(() => api.removeMember(group, name));
    await load();
  };
  return (
    <Section title={`Members of ${group}`} id="group-members-section">
      <TaskState task={task} what="Working" />
      {members === undefined ? null : (
        <>
          <ul class="plain" id="group-members">
            {members.items.length === 0 ? <li class="muted">no members</li> : null}
            {members.items.map((m) => (
              <li key={m.name}>
                {m.name} <span class="muted">({m.kind})</span>{' '}
                <button type="button" class="danger" onClick={() => remove(m.name)} disabled={task.busy}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          {members.complete ? null : <p class="muted">More members than shown{members.reason ? `: ${members.reason}` : ''}.</p>}
        </>
      )}
      <form onSubmit={add}>
        <Field label="Member" id="group-member" required value={member} onValue={setMember} />
        <Submit task={task}>Add to {group}</Submit>
      </form>
    </Section>
  );
}
