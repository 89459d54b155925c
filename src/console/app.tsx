import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ConsoleApi, type SessionView } from './console-api.js';
import { Audit } from './screens/audit.js';
import { Groups } from './screens/groups.js';
import { Health } from './screens/health.js';
import { Keys } from './screens/keys.js';
import { Principals } from './screens/principals.js';
import { Roles } from './screens/roles.js';
import { SignIn } from './screens/sign-in.js';
import { Policy, Trust } from './screens/trust.js';
import { keepSessionId, keptSessionId } from './session-keeper.js';
import { ErrorBox, SESSION_LOST, type Shown, shownError } from './ui.js';

const SCREENS = {
  keys: { title: 'Keys', Screen: Keys },
  principals: { title: 'Principals', Screen: Principals },
  groups: { title: 'Groups', Screen: Groups },
  roles: { title: 'Roles', Screen: Roles },
  trust: { title: 'Trust', Screen: Trust },
  policy: { title: 'Policy', Screen: Policy },
  audit: { title: 'Audit', Screen: Audit },
  health: { title: 'Health', Screen: Health },
} as const;

type ScreenName = keyof typeof SCREENS;

interface SignedIn {
  readonly api: ConsoleApi;
  readonly view: SessionView;
}

/** The console: sign in, then one screen at a time; a session kept for the tab is resumed on load. */
export function App() {
  const [signedIn, setSignedIn] = useState<SignedIn | undefined>(undefined);
  const [resuming, setResuming] = useState(keptSessionId() !== undefined);
  const [error, setError] = useState<Shown | undefined>(undefined);
  const [screen, setScreen] = useState<ScreenName>('keys');

  const enter = async (api: ConsoleApi) => {
    try {
      setSignedIn({ api, view: await api.whoAmI() });
      setError(undefined);
    } catch (failure) {
      keepSessionId(undefined);
      setError(shownError(failure));
    }
  };
  useEffect(() => {
    const kept = keptSessionId();
    if (kept === undefined) return;
    void enter(ConsoleApi.resume(kept)).finally(() => setResuming(false));
  }, []);
  useEffect(() => {
    document.body.dataset.ready = 'true';
    const lost = (event: Event) => {
      keepSessionId(undefined);
      setSignedIn(undefined);
      setError((event as CustomEvent<Shown>).detail);
    };
    window.addEventListener(SESSION_LOST, lost);
    return () => window.removeEventListener(SESSION_LOST, lost);
  }, []);

  if (resuming) return <p class="muted">Resuming the session kept for this tab…</p>;
  if (signedIn === undefined) {
    return (
      <>
        <Header />
        <ErrorBox error={error} />
        <SignIn onSignedIn={(api) => void enter(api)} />
      </>
    );
  }
  const signOut = async () => {
    keepSessionId(undefined);
    try {
      await signedIn.api.signOut();
    } finally {
      setSignedIn(undefined);
    }
  };
  const { Screen } = SCREENS[screen];
  return (
    <>
      <Header>
        <span id="whoami">
          {signedIn.view.user} <span class="muted">({signedIn.view.kind} session)</span>
        </span>{' '}
        <button id="sign-out" type="button" onClick={signOut}>
          Sign out
        </button>
      </Header>
      <nav>
        {(Object.keys(SCREENS) as ScreenName[]).map((name) => (
          <button
            key={name}
            type="button"
            id={`nav-${name}`}
            class={name === screen ? 'current' : ''}
            aria-current={name === screen ? 'page' : undefined}
            onClick={() => setScreen(name)}
          >
            {SCREENS[name].title}
          </button>
        ))}
      </nav>
      <Screen key={screen} api={signedIn.api} />
    </>
  );
}

function Header({ children }: { children?: ComponentChildren }) {
  return (
    <header>
      <h1>keygate console</h1>
      <div class="who">{children}</div>
    </header>
  );
}
