import { useState } from 'preact/hooks';
import type { ConsoleApi, ManagedKey } from '../console-api.js';
import { Table, TaskState, useTask, when } from '../ui.js';

/**
 * A key's versions (docs/spec.md §4.22): the newest ones the view lists, rotate (a new version), and the
 * minimum version, which retires those below it for good (confirmed first).
 */
export function KeyVersions({ api, keyView, onChanged }: { api: ConsoleApi; keyView: ManagedKey; onChanged: (key: ManagedKey) => void }) {
  const [minimum, setMinimum] = useState(String(keyView.minVersion));
  const task = useTask();
  const changed = (key: ManagedKey | undefined) => {
    if (key === undefined) return;
    setMinimum(String(key.minVersion));
    onChanged(key);
  };
  const rotate = async () => changed(await task.run(() => api.rotateKey(keyView.ttag)));
  const retire = async (event: Event) => {
    event.preventDefault();
    const wanted = Number(minimum);
    if (!window.confirm(`Retire every version below ${wanted}? Ciphertexts under them no longer open; the minimum never goes down.`))
      return;
    changed(await task.run(() => api.setMinVersion(keyView.ttag, wanted)));
  };
  return (
    <div id="key-versions">
      <h3>Versions</h3>
      <p>
        Newest <strong data-field="version">{keyView.version}</strong>, minimum{' '}
        <strong data-field="min-version">{keyView.minVersion}</strong>
        {keyView.rotationPeriod === undefined ? null : (
          <span class="muted">
            {' '}
            (rotated every {keyView.rotationPeriod}, next {when(keyView.nextRotationAt)})
          </span>
        )}
      </p>
      <Table id="key-versions-list" columns={['version', 'created', 'state']}>
        {[...keyView.versions].reverse().map((version) => (
          <tr key={version.version} data-version={version.version}>
            <td>{version.version}</td>
            <td>{when(version.createdAt)}</td>
            <td data-field="state">{version.state}</td>
          </tr>
        ))}
      </Table>
      {keyView.versionsOmitted === undefined ? null : <p class="muted">{keyView.versionsOmitted} older versions not shown.</p>}
      <p class="actions">
        <button id="key-rotate" type="button" onClick={rotate} disabled={task.busy}>
          Rotate (add version {keyView.version + 1})
        </button>
      </p>
      <form onSubmit={retire} id="key-min-version">
        <label>
          Minimum version{' '}
          <input
            id="key-min-version-value"
            type="number"
            min={keyView.minVersion}
            max={keyView.version}
            value={minimum}
            onInput={(e) => setMinimum((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <button id="key-min-version-button" type="submit" class="danger" disabled={task.busy || Number(minimum) === keyView.minVersion}>
          Retire the versions below it
        </button>
      </form>
      <TaskState task={task} what="Changing the versions" />
    </div>
  );
}
