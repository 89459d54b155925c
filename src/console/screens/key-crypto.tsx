import { useState } from 'preact/hooks';
import type { ConsoleApi, ManagedKey } from '../console-api.js';
import { TaskState, useTask } from '../ui.js';
import { ContextEditor, type ContextRow, contextOf } from './context-editor.js';
import { KeyCryptoFile } from './key-crypto-file.js';

/**
 * A small encrypt/decrypt tool on one key (docs/spec.md §4.5): text in, its sealed text out (the
 * version and every value needed to open it, `kg:v<n>:...`); sealed text in, its text back; each
 * bound to the editor's encryption context (docs/spec.md §4.5b), which decrypting needs again. Files
 * go through the stream format (KeyCryptoFile). The key never leaves the key server; what the page
 * sends and shows is the operator's own text. The key is read again after each use, so its last use
 * (docs/spec.md §4.23 item 6) shows.
 */
export function KeyCrypto({ api, ttag, onUsed }: { api: ConsoleApi; ttag: string; onUsed: (key: ManagedKey) => void }) {
  const [rows, setRows] = useState<ContextRow[]>([]);
  const [text, setText] = useState('');
  const [sealed, setSealed] = useState('');
  const [opened, setOpened] = useState<string | undefined>(undefined);
  const task = useTask();
  const encrypt = async (event: Event) => {
    event.preventDefault();
    const answer = await task.run(() => api.encrypt(ttag, text, contextOf(rows)));
    if (answer === undefined) return;
    setSealed(answer.sealed ?? '');
    setOpened(undefined);
    await reread();
  };
  const reread = async () => {
    const key = await task.run(() => api.readKey(ttag));
    if (key !== undefined) onUsed(key);
  };
  const decrypt = async (event: Event) => {
    event.preventDefault();
    const plain = await task.run(() => api.decrypt(ttag, sealed.trim(), contextOf(rows)));
    if (plain === undefined) return;
    setOpened(readable(plain));
    await reread();
  };
  return (
    <div id="key-crypto">
      <h3>Encrypt and decrypt</h3>
      <ContextEditor rows={rows} onRows={setRows} />
      <form onSubmit={encrypt}>
        <label>
          Text <textarea id="crypto-text" rows={2} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
        </label>
        <button id="crypto-encrypt" type="submit" disabled={task.busy}>
          Encrypt
        </button>
      </form>
      <form onSubmit={decrypt}>
        <label>
          Sealed{' '}
          <textarea id="crypto-sealed" rows={2} value={sealed} onInput={(e) => setSealed((e.currentTarget as HTMLTextAreaElement).value)} />
        </label>
        <button id="crypto-decrypt" type="submit" disabled={task.busy || sealed.trim() === ''}>
          Decrypt
        </button>
      </form>
      {opened === undefined ? null : (
        <p>
          Decrypted: <output id="crypto-plaintext">{opened}</output>
        </p>
      )}
      <TaskState task={task} what="Asking the key server" />
      <KeyCryptoFile api={api} ttag={ttag} readContext={() => contextOf(rows)} onUsed={reread} />
    </div>
  );
}

/** The plaintext as text when it is UTF-8, else as base64 (said so). */
function readable(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return `(not UTF-8, base64) ${btoa(binary)}`;
  }
}
