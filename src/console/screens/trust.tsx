import { useEffect, useState } from 'preact/hooks';
import type { TrustedIssuerSettings, TrustedIssuerView } from '../../client/index.js';
import type { CertificateView, ConsoleApi, ProvisioningPolicy } from '../console-api.js';
import { inputText, Section, Submit, Table, TaskState, useTask, when } from '../ui.js';

/** The trusted certificate authorities, then the trusted issuers of workload tokens. */
export function Trust({ api }: { api: ConsoleApi }) {
  return (
    <>
      <Authorities api={api} />
      <Issuers api={api} />
    </>
  );
}

/** The trusted certificate authorities: list, trust one more (PEM), stop trusting one. */
function Authorities({ api }: { api: ConsoleApi }) {
  const [authorities, setAuthorities] = useState<readonly CertificateView[] | undefined>(undefined);
  const [pem, setPem] = useState('');
  const task = useTask();
  const load = () => task.run(async () => setAuthorities((await api.authorities()).items));
  useEffect(() => void load(), []);
  const add = async (event: Event) => {
    event.preventDefault();
    if ((await task.run(() => api.trustAuthority(pem))) === undefined) return;
    setPem('');
    await load();
  };
  const remove = async (id: string) => {
    if (!window.confirm('Stop trusting this authority? Logins with the certificates it issued are then refused.')) return;
    await task.run(() => api.untrustAuthority(id));
    await load();
  };
  return (
    <Section title="Trusted authorities" id="trust">
      <TaskState task={task} what="Working" />
      {authorities === undefined ? null : authorities.length === 0 ? (
        <p class="muted">No authority is trusted: certificate login is refused.</p>
      ) : (
        <Table columns={['subject', 'valid', 'key', 'id', '']}>
          {authorities.map((ca) => (
            <tr key={ca.id}>
              <td>{ca.subject}</td>
              <td>
                {when(ca.notBefore)} to {when(ca.notAfter)}
              </td>
              <td>{ca.keyAlg}</td>
              <td>
                <code>{ca.id.slice(0, 16)}…</code>
              </td>
              <td>
                <button type="button" class="danger" onClick={() => remove(ca.id)} disabled={task.busy}>
                  Stop trusting
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form onSubmit={add}>
        <label class="block">
          CA certificate (PEM)
          <textarea id="ca-pem" rows={6} required value={pem} onInput={(e) => setPem(inputText(e))} />
        </label>
        <Submit task={task}>Trust this authority</Submit>
      </form>
    </Section>
  );
}

/** An issuer's settings as the form starts them: a GitHub Actions issuer to edit (docs/how-to-workload-identity.md). */
const EXAMPLE_SETTINGS = JSON.stringify(
  {
    issuer: 'https://token.actions.githubusercontent.com',
    jwksUri: 'https://token.actions.githubusercontent.com/.well-known/jwks',
    audiences: ['https://keygate.example'],
    algorithms: ['RS256'],
    principal: 'gh-{repository_id}',
    createPrincipals: false,
    boundClaims: { repository: 'octo-org/app' },
  },
  null,
  2,
);

function parseSettings(text: string): TrustedIssuerSettings {
  try {
    return JSON.parse(text) as TrustedIssuerSettings;
  } catch {
    throw new Error('the settings are not JSON');
  }
}

/** The trusted issuers of workload tokens (docs/spec.md §4.24): list, set one from its JSON settings, stop trusting one. */
function Issuers({ api }: { api: ConsoleApi }) {
  const [issuers, setIssuers] = useState<readonly TrustedIssuerView[] | undefined>(undefined);
  const [name, setName] = useState('');
  const [settings, setSettings] = useState(EXAMPLE_SETTINGS);
  const task = useTask();
  const load = () => task.run(async () => setIssuers((await api.issuers()).items));
  useEffect(() => void load(), []);
  const put = async (event: Event) => {
    event.preventDefault();
    if ((await task.run(() => api.putIssuer(name, parseSettings(settings)))) === undefined) return;
    setName('');
    await load();
  };
  const remove = async (issuer: string) => {
    if (!window.confirm(`Stop trusting ${issuer}? Sign-ins with its tokens are then refused.`)) return;
    await task.run(() => api.deleteIssuer(issuer));
    await load();
  };
  const edit = (issuer: TrustedIssuerView) => {
    const { name: issuerName, ...rest } = issuer;
    setName(issuerName);
    setSettings(JSON.stringify(rest, null, 2));
  };
  return (
    <Section title="Trusted issuers of workload tokens" id="issuers">
      <TaskState task={task} what="Working" />
      {issuers === undefined ? null : issuers.length === 0 ? (
        <p class="muted">No issuer is trusted: workload sign-in is refused.</p>
      ) : (
        <Table columns={['name', 'issuer', 'principal', 'keys', '']}>
          {issuers.map((issuer) => (
            <tr key={issuer.name}>
              <td>{issuer.name}</td>
              <td>
                <code>{issuer.issuer}</code>
              </td>
              <td>
                <code>{issuer.principal}</code>
                {issuer.createPrincipals ? ' (created)' : ''}
              </td>
              <td>{issuer.jwksUri ?? `${issuer.jwks?.keys.length ?? 0} inline`}</td>
              <td>
                <button type="button" onClick={() => edit(issuer)} disabled={task.busy}>
                  Edit
                </button>{' '}
                <button type="button" class="danger" onClick={() => remove(issuer.name)} disabled={task.busy}>
                  Stop trusting
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form onSubmit={put}>
        <label class="block">
          Name
          <input id="issuer-name" required value={name} onInput={(e) => setName(inputText(e))} />
        </label>
        <label class="block">
          Settings (JSON)
          <textarea id="issuer-settings" rows={12} required value={settings} onInput={(e) => setSettings(inputText(e))} />
        </label>
        <Submit task={task}>Trust this issuer</Submit>
      </form>
    </Section>
  );
}

const NAME_ATTRIBUTES: readonly ProvisioningPolicy['nameAttribute'][] = ['CN', 'UID', 'emailAddress'];

const list = (text: string) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/** The certificate auto-provisioning policy: its four parameters, each set on its own. */
export function Policy({ api }: { api: ConsoleApi }) {
  const [policy, setPolicy] = useState<ProvisioningPolicy | undefined>(undefined);
  const task = useTask();
  useEffect(() => void task.run(async () => setPolicy(await api.policy())), []);
  const set = (parameter: keyof ProvisioningPolicy, value: unknown) =>
    task.run(async () => {
      setPolicy(await api.setPolicy(parameter, value));
    });
  return (
    <Section title="Provisioning policy" id="policy">
      <p class="muted">What a certificate login whose principal does not exist yet does.</p>
      <TaskState task={task} what="Working" />
      {policy === undefined ? null : (
        <dl class="fields">
          <dt>auto-provision</dt>
          <dd>
            <label class="check">
              <input
                id="policy-auto"
                type="checkbox"
                checked={policy.autoProvision}
                disabled={task.busy}
                onChange={(e) => set('autoProvision', (e.currentTarget as HTMLInputElement).checked)}
              />{' '}
              create the principal from the certificate
            </label>
          </dd>
          <dt>name attribute</dt>
          <dd>
            <select value={policy.nameAttribute} disabled={task.busy} onChange={(e) => set('nameAttribute', inputText(e))}>
              {NAME_ATTRIBUTES.map((attribute) => (
                <option key={attribute} value={attribute}>
                  {attribute}
                </option>
              ))}
            </select>
          </dd>
          <dt>default roles</dt>
          <dd>
            <ListField value={policy.defaultRoles} busy={task.busy} onSave={(value) => set('defaultRoles', value)} />
          </dd>
          <dt>default groups</dt>
          <dd>
            <ListField value={policy.defaultGroups} busy={task.busy} onSave={(value) => set('defaultGroups', value)} />
          </dd>
        </dl>
      )}
    </Section>
  );
}

function ListField({ value, busy, onSave }: { value: readonly string[]; busy: boolean; onSave: (value: string[]) => void }) {
  const [text, setText] = useState(value.join(', '));
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(list(text));
      }}
    >
      <input value={text} placeholder="none" onInput={(e) => setText(inputText(e))} />
      <button type="submit" disabled={busy}>
        Save
      </button>
    </form>
  );
}
