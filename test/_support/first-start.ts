/** The passwords a first `keygate serve` printed under "generated passwords (shown once)", by user. */
export function generatedPasswords(output: string): Record<string, string> {
  const lines = output.split('\n');
  const start = lines.indexOf('keygate: generated passwords (shown once):');
  if (start === -1) return {};
  const users: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    const user = /^ {2}(\w+): (\S+)$/.exec(line);
    if (user === null) break;
    users[user[1]!] = user[2]!;
  }
  return users;
}

/** The status a password sign-in (`POST /api/session`) on the gateway at `url` answers. */
export async function login(url: string, user: string, password: string): Promise<number> {
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, password }),
  });
  await response.arrayBuffer();
  return response.status;
}
