import { useEffect, useState } from 'preact/hooks';
import { type ConsoleApi, type HealthReport, type KeyServerDaemonView, readHealth, type SessionListItem } from '../console-api.js';
import { Section, Table, TaskState, useTask, when } from '../ui.js';

/**
 * Health: the key server's fingerprint, each check, every key-server daemon the gateway reaches (when it
 * reaches daemons), the live sessions; and the operator's own sessions.
 */
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
      {report?.keyServers === undefined ? null : <Daemons daemons={report.keyServers} />}
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

/** Every daemon, in the gateway's order: the key server check is ok while one of them serves. */
function Daemons({ daemons }: { daemons: readonly KeyServerDaemonView[] }) {
  return (
    <>
      <h3>Key-server daemons</h3>
      <Table id="health-daemons" columns={['daemon', 'fingerprint', 'state']}>
        {daemons.map((daemon) => (
          <tr key={daemon.url} data-url={daemon.url}>
            <td>{daemon.url}</td>
            <td>{daemon.fingerprint === undefined ? <span class="muted">not seen yet</span> : <code>{daemon.fingerprint}</code>}</td>
            <td data-field="state" class={daemon.ok ? 'ok' : 'error'}>
              {daemon.ok ? 'serves' : 'unavailable'}
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
