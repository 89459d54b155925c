import { useState } from 'preact/hooks';
import type { AclView, ConsoleApi, Right } from '../console-api.js';
import { Field, Table, TaskState, useTask } from '../ui.js';

/** The key rights an ACL entry may give (docs/spec.md §4.3 item 4). */
const RIGHTS: readonly Right[] = ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate', 'tag', 'sign'];

/** Who can reach the key: its owner and each ACL entry (a group's entry reaches its members); grant and revoke. */
export function AclTable({
  api,
  ttag,
  acl,
  onChanged,
}: {
  api: ConsoleApi;
  ttag: string;
  acl: AclView;
  onChanged: (acl: AclView) => void;
}) {
  const [principal, setPrincipal] = useState('');
  const [rights, setRights] = useState<readonly Right[]>(['read']);
  const task = useTask();
  const reread = async () => onChanged(await api.readAcl(ttag));
  const grant = async (event: Event) => {
    event.preventDefault();
    await task.run(async () => {
      await api.grant(ttag, principal.trim(), rights);
      await reread();
    });
  };
  const revoke = (who: string) =>
    task.run(async () => {
      await api.revoke(ttag, who);
      await reread();
    });
  const toggle = (right: Right) => setRights((held) => (held.includes(right) ? held.filter((r) => r !== right) : [...held, right]));
  return (
    <div id="acl">
      <h3>Who can reach this key</h3>
      <Table columns={['principal', 'rights', '']}>
        <tr>
          <td>{acl.owner.user}</td>
          <td>owner (every right, and the ACL)</td>
          <td />
        </tr>
        {acl.items.map((entry) => (
          <tr key={entry.principal} data-principal={entry.principal}>
            <td>{entry.principal}</td>
            <td data-field="rights">{entry.rights.join(', ')}</td>
            <td>
              <button type="button" class="danger" onClick={() => revoke(entry.principal)} disabled={task.busy}>
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </Table>
      {acl.complete ? null : <p class="muted">The ACL is longer than shown.</p>}
      <form onSubmit={grant} id="grant">
        <Field label="Principal or group" id="grant-principal" required value={principal} onValue={setPrincipal} />
        <fieldset>
          <legend>Rights</legend>
          {RIGHTS.map((right) => (
            <label class="check" key={right}>
              <input type="checkbox" name="right" value={right} checked={rights.includes(right)} onChange={() => toggle(right)} /> {right}
            </label>
          ))}
        </fieldset>
        <button id="grant-button" type="submit" disabled={task.busy || rights.length === 0}>
          Grant (replaces the principal's rights)
        </button>
      </form>
      <TaskState task={task} what="Changing the ACL" />
    </div>
  );
}
