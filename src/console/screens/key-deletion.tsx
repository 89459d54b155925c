import { useState } from 'preact/hooks';
import type { ConsoleApi, ManagedKey } from '../console-api.js';
import { TaskState, useTask, when } from '../ui.js';

/**
 * Scheduled deletion (docs/spec.md §4.23 item 5): schedule it after a number of days (blank: the key
 * server's longest wait), or, while it is pending, cancel it (the key comes back disabled); each
 * confirmed first. A deleted key shows when it was destroyed.
 */
export function KeyDeletion({ api, keyView, onChanged }: { api: ConsoleApi; keyView: ManagedKey; onChanged: (key: ManagedKey) => void }) {
  const [days, setDays] = useState('');
  const task = useTask();
  const done = (key: ManagedKey | undefined) => key !== undefined && onChanged(key);
  const schedule = async (event: Event) => {
    event.preventDefault();
    const pendingDays = days.trim() === '' ? undefined : Number(days);
    const wait = pendingDays === undefined ? "the key server's longest wait" : `${pendingDays} days`;
    if (
      !window.confirm(
        `Schedule this key's deletion after ${wait}? Until then it refuses export and cryptography; then every version's material is destroyed for good.`,
      )
    )
      return;
    done(await task.run(() => api.scheduleDeletion(keyView.ttag, pendingDays)));
  };
  const cancel = async () => {
    if (!window.confirm('Cancel the deletion? The key comes back disabled; enable it to use it again.')) return;
    done(await task.run(() => api.cancelDeletion(keyView.ttag)));
  };
  if (keyView.state === 'deleted')
    return <p id="key-deletion">Deleted {when(keyView.deletedAt)}: its material is destroyed; its ttag never names another key.</p>;
  return (
    <div id="key-deletion">
      <h3>Deletion</h3>
      {keyView.state === 'pending-deletion' ? (
        <p>
          To be destroyed at <strong data-field="deletion-at">{when(keyView.deletionAt)}</strong>{' '}
          <button id="key-cancel-deletion" type="button" onClick={cancel} disabled={task.busy}>
            Cancel the deletion
          </button>
        </p>
      ) : (
        <form onSubmit={schedule}>
          <label>
            Days to wait{' '}
            <input
              id="key-pending-days"
              type="number"
              min={1}
              max={365}
              placeholder="longest"
              value={days}
              onInput={(e) => setDays((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <button id="key-schedule-deletion" type="submit" class="danger" disabled={task.busy}>
            Schedule deletion
          </button>
        </form>
      )}
      <TaskState task={task} what="Changing the deletion" />
    </div>
  );
}
