import { useEffect, useState } from 'preact/hooks';
import type { ConsoleApi, ListView, PrincipalView } from '../console-api.js';
import { Field, inputText, Pager, Section, Submit, Table, TaskState, usePages, useTask, when } from '../ui.js';

type Kind = PrincipalView['kind'];

/** Principals: a paged list (with the groups and roles each holds on demand), create, disable. */
export function Principals({ api }: { api: ConsoleApi }) {
  const [page, setPage] = useState<ListView<PrincipalView> | undefined>(undefined);
  const task = useTask();
  const load = (cursor?: string) =>
    task.run(async () => setPage(await api.principals(cursor === undefined ? { limit: 50 } : { limit: 50, cursor })));
  const pages = usePages(load);
  useEffect(() => void load(), []);
  const replace = (changed: PrincipalView) =>
    setPage((shown) => shown && { ...shown, items: shown.items.map((p) => (p.name === changed.name ? changed : p)) });
  return (
    <>
      <CreatePrincipal api={api} onCreated={() => load(pages.current)} />
      <Section title="Principals" id="principals">
        <TaskState task={task} what="Loading principals" />
        {page === undefined ? null : (
          <Table columns={['name', 'kind', 'roles', 'created', 'state', '']}>
            {page.items.map((principal) => (
              <PrincipalRow key={principal.name} api={api} principal={principal} onChanged={replace} />
            ))}
          </Table>
        )}
        <Pager next={page?.next} reason={page?.reason} onNext={pages.forward} />
      </Section>
    </>
  );
}

function PrincipalRow({ api, principal, onChanged }: { api: ConsoleApi; principal: PrincipalView; onChanged: (p: PrincipalView) => void }) {
  const [groups, setGroups] = useState<readonly string[] | undefined>(undefined);
  const task = useTask();
  const toggle = async () => {
    const changed = await task.run(() => api.setDisabled(principal.name, !principal.disabled));
    if (changed !== undefined) onChanged(changed);
  };
  const showGroups = () => task.run(async () => setGroups((await api.groupsOf(principal.name)).items.map((g) => g.name)));
  return (
    <tr data-principal={principal.name}>
      <td>
        {principal.name}
        {principal.displayName === undefined ? null : <span class="muted"> ({principal.displayName})</span>}
        {groups === undefined ? null : <div class="muted">groups: {groups.length === 0 ? 'none' : groups.join(', ')}</div>}
      </td>
      <td>{principal.kind}</td>
      <td>{principal.roles.join(', ') || <span class="muted">none</span>}</td>
      <td>{when(principal.createdAt)}</td>
      <td data-field="state">{principal.disabled ? 'disabled' : 'enabled'}</td>
      <td>
        <button type="button" onClick={showGroups} disabled={task.busy}>
          Groups
        </button>{' '}
        <button type="button" class={principal.disabled ? '' : 'danger'} onClick={toggle} disabled={task.busy}>
          {principal.disabled ? 'Enable' : 'Disable'}
        </button>
        <TaskState task={task} what="Working" />
      </td>
    </tr>
  );
}

function CreatePrincipal({ api, onCreated }: { api: ConsoleApi; onCreated: (p: PrincipalView) => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('user');
  const [password, setPassword] = useState('');
  const [roles, setRoles] = useState('');
  const [created, setCreated] = useState<string | undefined>(undefined);
  const task = useTask();
  const submit = async (event: Event) => {
    event.preventDefault();
    const roleList = roles
      .split(',')
      .map((role) => role.trim())
      .filter((role) => role !== '');
    const request = {
      name: name.trim(),
      kind,
      ...(password === '' ? {} : { password }),
      ...(roleList.length === 0 ? {} : { roles: roleList }),
    };
    const principal = await task.run(() => api.createPrincipal(request));
    if (principal === undefined) return;
    setPassword('');
    setCreated(principal.name);
    onCreated(principal);
  };
  return (
    <Section title="Create a principal" id="create-principal">
      <form onSubmit={submit}>
        <Field label="Name" id="principal-name" required value={name} onValue={setName} />
        <label>
          Kind{' '}
          <select id="principal-kind" value={kind} onChange={(e) => setKind(inputText(e) as Kind)}>
            <option value="user">user</option>
            <option value="group">group</option>
            <option value="service">service</option>
          </select>
        </label>
        <Field
          label="Password"
          id="principal-password"
          type="password"
          autocomplete="new-password"
          value={password}
          onValue={setPassword}
        />
        <Field label="Roles" id="principal-roles" placeholder="comma-separated" value={roles} onValue={setRoles} />
        <Submit task={task} id="create-principal-button">
          Create
        </Submit>
      </form>
      {created === undefined ? null : (
        <p class="ok" role="status" id="principal-created">
          Created {created}.
        </p>
      )}
      <TaskState task={task} what="Creating the principal" />
    </Section>
  );
}
