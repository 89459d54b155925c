import { useState } from 'preact/hooks';
import { ConsoleApi } from '../console-api.js';
import { keepSessionId } from '../session-keeper.js';
import { Field, Section, Submit, TaskState, useTask } from '../ui.js';

/**
 * Sign in with a password (POST /api/session). The session is unbound: the page keeps its id in
 * memory, or in sessionStorage too when the operator asks for it; the password is dropped at once.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (api: ConsoleApi) => void }) {
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [keep, setKeep] = useState(false);
  const task = useTask();
  const submit = async (event: Event) => {
    event.preventDefault();
    const session = await task.run(() => ConsoleApi.login(user, password));
    if (session === undefined) return;
    setPassword('');
    keepSessionId(keep ? session.sessionId : undefined);
    onSignedIn(new ConsoleApi(session));
  };
  return (
    <Section title="Sign in" id="sign-in">
      <form onSubmit={submit}>
        <Field label="User" id="user" name="user" autocomplete="username" required value={user} onValue={setUser} />
        <Field
          label="Password"
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <label class="check">
          <input id="keep" type="checkbox" checked={keep} onChange={(e) => setKeep((e.currentTarget as HTMLInputElement).checked)} /> Keep
          the session for this tab (sessionStorage; otherwise it is gone on reload)
        </label>
        <Submit task={task} id="sign-in-button">
          Sign in
        </Submit>
      </form>
      <TaskState task={task} what="Signing in" />
    </Section>
  );
}
