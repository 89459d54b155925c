import { useEffect, useState } from 'preact/hooks';
import type { PublicKeyView, SigningAlg } from '../../client/index.js';
import { ALGS_OF_TYPE, type SigningKeyType } from '../../wire/key-type.js';
import { type ConsoleApi, type ManagedKey, publishedJwksUrl } from '../console-api.js';
import { inputText, Table, TaskState, useTask } from '../ui.js';

/**
 * A signing key's part of its page (docs/spec.md §4.25): each listed version's public key (PEM) and
 * JWK thumbprint (its `kid`), the published JWKS and the owner's switch for it, and a sign/verify tool.
 * The private key never leaves the key server; the page sees public keys and signatures only.
 */
export function KeySigning({ api, keyView, onChanged }: { api: ConsoleApi; keyView: ManagedKey; onChanged: (key: ManagedKey) => void }) {
  return (
    <div id="key-signing">
      <PublicKeys api={api} keyView={keyView} />
      <Published api={api} keyView={keyView} onChanged={onChanged} />
      <SignTool api={api} keyView={keyView} onUsed={onChanged} />
    </div>
  );
}

/** GET /api/keys/{ttag}/public-key of each version the view lists (retired ones too, docs/spec.md §4.25 item 6). */
function PublicKeys({ api, keyView }: { api: ConsoleApi; keyView: ManagedKey }) {
  const [keys, setKeys] = useState<readonly PublicKeyView[]>([]);
  const task = useTask();
  const versions = keyView.versions.map((version) => version.version).join(',');
  useEffect(() => {
    void task.run(async () => setKeys(await Promise.all(keyView.versions.map((v) => api.publicKey(keyView.ttag, v.version)))));
  }, [keyView.ttag, versions]);
  const stateOf = (version: number) => keyView.versions.find((v) => v.version === version)?.state ?? '';
  return (
    <div id="key-public-keys">
      <h3>Public keys</h3>
      <Table id="key-public-keys-list" columns={['version', 'state', 'kid (JWK thumbprint)', 'public key']}>
        {[...keys]
          .sort((a, b) => b.version - a.version)
          .map((key) => (
            <tr key={key.version} data-version={key.version}>
              <td>{key.version}</td>
              <td>{stateOf(key.version)}</td>
              <td>
                <code data-field="kid">{key.kid}</code>
              </td>
              <td>
                <details>
                  <summary>PEM</summary>
                  <pre data-field="pem">{key.pem}</pre>
                </details>
              </td>
            </tr>
          ))}
      </Table>
      <TaskState task={task} what="Reading the public keys" />
    </div>
  );
}

/** The published JWKS (docs/spec.md §4.25 item 7): its URL while published, and the owner's switch. */
function Published({ api, keyView, onChanged }: { api: ConsoleApi; keyView: ManagedKey; onChanged: (key: ManagedKey) => void }) {
  const task = useTask();
  const published = keyView.published === true;
  const url = publishedJwksUrl(keyView.ttag);
  const toggle = async () => {
    const question = published
      ? 'Withdraw the published JWKS? Relying parties that fetch it then get 404 and cannot verify new tokens.'
      : "Publish this key's JWKS? Anyone may then fetch its public keys, without a session.";
    if (!window.confirm(question)) return;
    const key = await task.run(() => api.setPublished(keyView.ttag, !published));
    if (key !== undefined) onChanged(key);
  };
  return (
    <div id="key-published">
      <h3>Published JWKS</h3>
      <p>
        {published ? (
          <>
            Published at{' '}
            <a id="key-jwks-url" href={url} target="_blank" rel="noreferrer">
              {url}
            </a>
          </>
        ) : (
          <span data-field="published" class="muted">
            not published
          </span>
        )}{' '}
        <button id="key-publish" type="button" onClick={toggle} disabled={task.busy}>
          {published ? 'Withdraw' : 'Publish'}
        </button>
      </p>
      <TaskState task={task} what="Changing the publication" />
    </div>
  );
}

/**
 * Text in, its signature (standard base64) out, with the newest version; text and signature in, valid or
 * invalid out (under any version not retired, docs/spec.md §4.25 item 4). The key is read again after each
 * use, so its last use shows.
 */
function SignTool({ api, keyView, onUsed }: { api: ConsoleApi; keyView: ManagedKey; onUsed: (key: ManagedKey) => void }) {
  const algs = ALGS_OF_TYPE[keyView.type as SigningKeyType] ?? [];
  const [alg, setAlg] = useState<SigningAlg>(keyView.alg ?? algs[0]!);
  const [text, setText] = useState('');
  const [signature, setSignature] = useState('');
  const [verdict, setVerdict] = useState<{ valid: boolean; version?: number } | undefined>(undefined);
  const task = useTask();
  const reread = async () => {
    const key = await task.run(() => api.readKey(keyView.ttag));
    if (key !== undefined) onUsed(key);
  };
  const sign = async (event: Event) => {
    event.preventDefault();
    const signed = await task.run(() => api.sign(keyView.ttag, alg, text));
    if (signed === undefined) return;
    setSignature(signed);
    setVerdict(undefined);
    await reread();
  };
  const verify = async () => {
    const answer = await task.run(() => api.verify(keyView.ttag, alg, text, signature.trim()));
    if (answer === undefined) return;
    setVerdict(answer);
    await reread();
  };
  return (
    <div id="key-sign">
      <h3>Sign and verify</h3>
      <form onSubmit={sign}>
        <label>
          Algorithm{' '}
          <select id="sign-alg" value={alg} onChange={(e) => setAlg(inputText(e) as SigningAlg)}>
            {algs.map((one) => (
              <option key={one} value={one}>
                {one}
              </option>
            ))}
          </select>
        </label>
        <label>
          Text <textarea id="sign-text" rows={2} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
        </label>
        <button id="sign-button" type="submit" disabled={task.busy}>
          Sign
        </button>
      </form>
      <label>
        Signature (base64){' '}
        <textarea
          id="sign-signature"
          rows={2}
          value={signature}
          onInput={(e) => setSignature((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      <button id="sign-verify-button" type="button" onClick={verify} disabled={task.busy || signature.trim() === ''}>
        Verify
      </button>
      {verdict === undefined ? null : (
        <p id="sign-verdict" data-valid={String(verdict.valid)}>
          {verdict.valid ? `Valid (version ${verdict.version})` : 'Invalid'}
        </p>
      )}
      <TaskState task={task} what="Asking the key server" />
    </div>
  );
}
