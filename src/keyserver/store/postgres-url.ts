/**
 * A PostgreSQL URL as it may be shown: the password replaced by `[redacted]` (a log line, an error,
 * the server's configuration). A value that does not parse as a URL is shown as `[redacted]` whole.
 */
export function redactPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '[redacted]';
    // Query parameters may carry a password too (`?password=`): they are not shown.
    parsed.search = '';
    return parsed.toString().replace('%5Bredacted%5D', '[redacted]');
  } catch {
    return '[redacted]';
  }
}

/** The server and database a URL names, for messages: `host:port/database`, nothing of the credentials. */
export function postgresTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL ${parsed.host || 'localhost'}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}
