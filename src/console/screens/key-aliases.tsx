import { useEffect, useState } from 'preact/hooks';
import type { AliasView, ConsoleApi, ListView } from '../console-api.js';
import { Field, Table, TaskState, useTask, when } from '../ui.js';

/**
 * A key's aliases (docs/spec.md §4.23 item 3, GET /api/aliases?ttag=): each one, add one (an alias
 * naming another key the operator owns moves here), delete one. A key is opened by alias as `alias/<name>`.
 */
export function KeyAliases({ api, ttag }: { api: ConsoleApi; ttag: string }) {
  const [aliases, setAliases] = useState<ListView<AliasView> | undefined>(undefined);
  const [alias, setAlias] = useState('');
  const task = useTask();
  const load = () => task.run(async () => setAliases(await api.aliasesOf(ttag)));
  useEffect(() => void load(), [ttag]);
  const change = async (work: () => Promise<unknown>) => {
    const done = await task.run(work);
    await load();
    return done;
  };
  const add = async (event: Event) => {
    event.preventDefault();
    if ((await change(() => api.setAlias(alias.trim(), ttag))) !== undefined) setAlias('');
  };
  return (
    <div id="key-aliases">
      <h3>Aliases</h3>
      {aliases === undefined ? null : aliases.items.length === 0 ? (
        <p class="muted">No aliases.</p>
      ) : (
        <Table id="key-aliases-list" columns={['alias', 'set', '']}>
          {aliases.items.map((item) => (
            <tr key={item.alias} data-alias={item.alias}>
              <td>
                <code>alias/{item.alias}</code>
              </td>
              <td>{when(item.updatedAt)}</td>
              <td>
                <button type="button" class="danger" onClick={() => void change(() => api.deleteAlias(item.alias))} disabled={task.busy}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {aliases?.next === undefined ? null : <p class="muted">More aliases than shown.</p>}
      <form onSubmit={add} id="key-alias-form">
        <Field label="Alias" id="key-alias-name" required value={alias} onValue={setAlias} />
        <button id="key-alias-set" type="submit" disabled={task.busy}>
          Name this key by it
        </button>
      </form>
      <TaskState task={task} what="Changing the aliases" />
    </div>
  );
}
