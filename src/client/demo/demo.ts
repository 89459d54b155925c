import { fingerprint, fromUtf8, KeygateClient, type KeygateSession, type KeyView, ProofKey, ReauthRequiredError } from '../index.js';
import { describeError, element, loggingFetch, showBusy, showError, showOk } from './demo-view.js';

/**
 * The demo page: sign in, create a key, mint a scoped session bound to a non-extractable key made
 * here, export the key and show its SHA-256 fingerprint (never the key), encrypt and decrypt through
 * the bound session, sign out. Plain DOM; every value is set as text.
 */
interface DemoState {
  client?: KeygateClient;
  password?: KeygateSession;
  key?: KeyView;
  scoped?: KeygateSession;
}

const state: DemoState = {};
const buttons = ['create-key', 'mint-scoped', 'export', 'round-trip', 'sign-out'] as const;

function enable(...ids: (typeof buttons)[number][]): void {
  for (const id of buttons) element<HTMLButtonElement>(id).disabled = !ids.includes(id);
}

function gatewayUrl(): string {
  return element<HTMLInputElement>('gateway-url').value.trim();
}

/** Runs one step: busy, then the fields it answers, or the error as a person should read it. */
function step(outputId: string, run: () => Promise<ReadonlyArray<readonly [string, string]>>) {
  return async (event?: Event) => {
    event?.preventDefault();
    showBusy(outputId);
    try {
      showOk(outputId, await run());
    } catch (error) {
      showError(outputId, error);
      console.warn(describeError(error));
      if (error instanceof ReauthRequiredError) signInAgain();
    }
  };
}

/** The server-held token is gone: the sessions are of no use, so the page starts over at sign-in. */
function signInAgain(): void {
  delete state.scoped;
  delete state.password;
  enable();
  element<HTMLInputElement>('password').focus();
}

const checkHealth = step('health-out', async () => {
  const health = await new KeygateClient({ baseUrl: gatewayUrl(), fetch: loggingFetch() }).health();
  return [
    ['status', health.ok ? 'ok' : 'failing'],
    ['key server', health.ksFingerprint],
  ];
});

const signIn = step('sign-in-out', async () => {
  state.client = new KeygateClient({ baseUrl: gatewayUrl(), fetch: loggingFetch() });
  const user = element<HTMLInputElement>('user').value;
  const password = element<HTMLInputElement>('password');
  state.password = await state.client.login(user, password.value);
  password.value = '';
  enable('create-key', 'sign-out');
  return [
    ['user', state.password.view?.user ?? user],
    ['session', `${state.password.view?.kind}, unbound`],
  ];
});

const createKey = step('key-out', async () => {
  const keyLen = Number(element<HTMLSelectElement>('key-len').value) as 16 | 24 | 32;
  state.key = await state.password!.createKey({ keyLen, label: 'browser demo' });
  enable('create-key', 'mint-scoped', 'sign-out');
  return [
    ['ttag', state.key.ttag],
    ['length', `${state.key.keyLen} bytes`],
    ['owner', state.key.owner.user],
  ];
});

const mintScoped = step('scoped-out', async () => {
  const proofKey = await ProofKey.generate();
  state.scoped = await state.password!.mintScoped({ objects: [state.key!.ttag], proofKey, ttlSeconds: 300 });
  enable('create-key', 'mint-scoped', 'export', 'round-trip', 'sign-out');
  return [
    ['page key', `P-256, ${proofKey.extractable ? 'extractable' : 'non-extractable'}`],
    ['jkt', proofKey.jkt],
    ['bound', String(state.scoped.view?.bound === true && state.scoped.view.jkt === proofKey.jkt)],
    ['rights', (state.scoped.view?.rights ?? []).join(', ')],
    ['expires', state.scoped.view?.expiresAt ?? ''],
  ];
});

const exportKey = step('export-out', async () => {
  const exported = await state.scoped!.exportKey(state.key!.ttag);
  const sha256 = await fingerprint(exported.key);
  exported.key.fill(0); // shown by fingerprint only; the bytes are wiped once hashed
  return [
    ['SHA-256', sha256],
    ['length', `${exported.keyLen} bytes`],
    ['unwrapped with', 'ECDH P-256 (non-extractable) → HKDF-SHA256 → AES-256-GCM'],
  ];
});

const roundTrip = step('round-trip-out', async () => {
  const text = element<HTMLInputElement>('plaintext').value;
  const sealed = await state.scoped!.encrypt(state.key!.ttag, text);
  const opened = fromUtf8(await state.scoped!.decrypt(state.key!.ttag, sealed));
  if (opened !== text) throw new Error(`round trip changed the text: "${opened}"`);
  return [
    ['ciphertext', `${sealed.ciphertext.slice(0, 32)}… (${sealed.alg})`],
    ['key version', String(sealed.version)],
    ['decrypted', opened],
    ['round trip', 'identical'],
  ];
});

const signOut = step('sign-out-out', async () => {
  const ended: string[] = [];
  if (state.scoped) {
    await state.scoped.logout();
    ended.push('scoped');
  }
  if (state.password) {
    await state.password.logout();
    ended.push('password');
  }
  delete state.scoped;
  delete state.password;
  enable();
  return [['ended', `${ended.join(' and ')} session${ended.length === 1 ? '' : 's'}`]];
});

function start(): void {
  const fromQuery = new URLSearchParams(location.search).get('gateway');
  const fromServer = document.querySelector<HTMLMetaElement>('meta[name="keygate-gateway"]')?.content;
  element<HTMLInputElement>('gateway-url').value = fromQuery ?? fromServer ?? '';
  element('gateway-form').addEventListener('submit', checkHealth);
  element('sign-in-form').addEventListener('submit', signIn);
  element('create-key').addEventListener('click', createKey);
  element('mint-scoped').addEventListener('click', mintScoped);
  element('export').addEventListener('click', exportKey);
  element('round-trip').addEventListener('click', roundTrip);
  element('sign-out').addEventListener('click', signOut);
  document.body.dataset.ready = 'true';
}

start();
