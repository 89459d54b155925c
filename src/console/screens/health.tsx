import { useEffect, useState } from 'preact/hooks';
import { type ConsoleApi, type HealthReport, readHealth, type SessionListItem } from '../console-api.js';
import { Section, Table, TaskState, useTask, when } from '../ui.js';

/** Health: the key server's fingerprint, each check, the live sessions; and the operator's own sessions. */
export function Health({ api }: { api: ConsoleApi }) {
  const [report, setReport] = useState<HealthReport | undefined>(undefined);
  const [sessions, setSessions] = useState<readonly SessionListItem[] | undefined>(undefined);
  const task = useTask();
  const load = () =>
    task.run(async () => {
      setReport(await readHealth());
      setSessions((await api.sessions()).items);
    });
  useEffect(() => void load(), []);
  return (
    <Section title="Health" id="health">
      <p>
        <button type="button" onClick={load} disabled={task.busy}>
          Check again
        </button>
      </p>
      <TaskState task={task} what="Asking the gateway" />
      {report === undefined ? null : (
        <dl class="fields" id="health-report">
          <dt>status</dt>
          <dd data-field="status" class={report.ok ? 'ok' : 'error'}>
            {report.ok ? 'ok' : 'failing'}
          </dd>
          <dt>key server</dt>
          <dd data-field="fingerprint">
            <code>{report.ksFingerprint}</code>
          </dd>
          <dt>version</dt>
          <dd>{report.version ?? ''}</dd>
          <dt>live sessions</dt>
          <dd data-field="sessions">{report.sessions}</dd>
          {Object.entries(report.checks ?? {}).map(([check, state]) => (
            <>
              <dt key={`${check}-name`}>{check}</dt>
              <dd key={check} data-field={`check-${check}`} class={state === 'ok' ? 'ok' : 'error'}>
                {state}
                {report.reasons?.[check] === undefined ? '' : `: ${report.reasons[check]}`}
              </dd>
            </>
          ))}
        </dl>
      )}
      {sessions === undefined ? null : (
        <>
          <h3>Your sessions</h3>
          <Table columns={['reference', 'kind', 'bound', 'created', 'expires']}>
            {sessions.map((s) => (
              <tr key={s.ref}>
                <td>
                  <code>{s.ref}</code>
                </td>
                <td>{s.kind}</td>
                <td>{s.bound ? 'yes' : 'no'}</td>
                <td>{when(s.createdAt)}</td>
                <td>{when(s.expiresAt)}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </Section>
  );
}
