import { useEffect, useState } from 'preact/hooks';
import type { ConsoleApi, RoleView } from '../console-api.js';
import { Section, Table, TaskState, useTask } from '../ui.js';

/** Every role and the operation ids it grants. */
export function Roles({ api }: { api: ConsoleApi }) {
  const [roles, setRoles] = useState<readonly RoleView[] | undefined>(undefined);
  const task = useTask();
  useEffect(() => void task.run(async () => setRoles((await api.roles()).items)), []);
  return (
    <Section title="Roles" id="roles">
      <TaskState task={task} what="Loading roles" />
      {roles === undefined ? null : (
        <Table columns={['role', 'operations']}>
          {roles.map((role) => (
            <tr key={role.name}>
              <td>{role.name}</td>
              <td class="wrap">{role.operations.join(', ')}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}
