import { useState } from 'preact/hooks';
import type { ConsoleApi, ManagedKey } from '../console-api.js';
import { Field, Table, TaskState, useTask } from '../ui.js';

/**
 * A key's tags (docs/spec.md §4.23 item 2): each name and value, set (a name already there gets the
 * new value) and delete; the owner or a holder of the right `tag`. The key is read again after each.
 */
export function KeyTags({ api, keyView, onChanged }: { api: ConsoleApi; keyView: ManagedKey; onChanged: (key: ManagedKey) => void }) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const task = useTask();
  const tags = Object.entries(keyView.tags ?? {});
  const after = async (change: () => Promise<unknown>) => {
    const key = await task.run(async () => {
      await change();
      return api.readKey(keyView.ttag);
    });
    if (key !== undefined) onChanged(key);
    return key;
  };
  const set = async (event: Event) => {
    event.preventDefault();
    if ((await after(() => api.setTag(keyView.ttag, name.trim(), value))) !== undefined) {
      setName('');
      setValue('');
    }
  };
  return (
    <div id="key-tags">
      <h3>Tags</h3>
      {tags.length === 0 ? (
        <p class="muted">No tags.</p>
      ) : (
        <Table id="key-tags-list" columns={['name', 'value', '']}>
          {tags.map(([tag, tagValue]) => (
            <tr key={tag} data-tag={tag}>
              <td>{tag}</td>
              <td class="wrap" data-field="value">
                {tagValue}
              </td>
              <td>
                <button
                  type="button"
                  class="danger"
                  onClick={() => void after(() => api.deleteTag(keyView.ttag, tag))}
                  disabled={task.busy}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form onSubmit={set} id="key-tag-form">
        <Field label="Name" id="key-tag-name" required value={name} onValue={setName} />
        <Field label="Value" id="key-tag-value" value={value} onValue={setValue} />
        <button id="key-tag-set" type="submit" disabled={task.busy}>
          Set the tag
        </button>
      </form>
      <TaskState task={task} what="Changing the tags" />
    </div>
  );
}
