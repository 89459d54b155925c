import { useState } from 'preact/hooks';
import type { ConsoleApi, ListView, PrincipalView } from '../console-api.js';
import { Field, Section, Submit, TaskState, useTask } from '../ui.js';

/** A group's members: show, add, remove (a group is a principal of kind `group`). */
export function Groups({ api }: { api: ConsoleApi }) {
  const [group, setGroup] = useState('');
  const [shown, setShown] = useState<{ group: string; members: ListView<PrincipalView> } | undefined>(undefined);
  const [member, setMember] = useState('');
  const task = useTask();
  const load = (name: string) => task.run(async () => setShown({ group: name, members: await api.members(name) }));
  const open = (event: Event) => {
    event.preventDefault();
    void load(group.trim());
  };
  const add = async (event: Event) => {
    event.preventDefault();
    if (shown === undefined) return;
    await task.run(() => api.addMember(shown.group, member.trim()));
    await load(shown.group);
  };
  const remove = async (name: string) => {
    if (shown === undefined) return;
    await task.run(() => api.removeMember(shown.group, name));
    await load(shown.group);
  };
  return (
    <Section title="Group members" id="groups">
      <form onSubmit={open}>
        <Field label="Group" id="group-name" required value={group} onValue={setGroup} />
        <Submit task={task}>Show members</Submit>
      </form>
      <TaskState task={task} what="Working" />
      {shown === undefined ? null : (
        <>
          <h3>{shown.group}</h3>
          <ul class="plain" id="group-members">
            {shown.members.items.length === 0 ? <li class="muted">no members</li> : null}
            {shown.members.items.map((m) => (
              <li key={m.name}>
                {m.name} <span class="muted">({m.kind})</span>{' '}
                <button type="button" class="danger" onClick={() => remove(m.name)} disabled={task.busy}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          {shown.members.complete ? null : (
            <p class="muted">More members than shown{shown.members.reason ? `: ${shown.members.reason}` : ''}.</p>
          )}
          <form onSubmit={add}>
            <Field label="Member" id="group-member" required value={member} onValue={setMember} />
            <Submit task={task}>Add to {shown.group}</Submit>
          </form>
        </>
      )}
    </Section>
  );
}
