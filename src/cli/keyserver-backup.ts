import type { BackupHeader } from '../keyserver/backup/backup-format.js';
import { BACKUP_USAGE, type BackupCommand, parseBackupArgs, wantsJson } from '../keyserver/backup/backup-options.js';
import { describeLocation } from '../keyserver/backup/open-durable-store.js';
import { ConfigError } from '../keyserver/config-error.js';

interface Output {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/**
 * `keygate keyserver backup` and `keygate keyserver restore`. A bad command line exits 2, a refused or
 * failed backup or restore 1; either is one line on stderr (`{ "error": { "detail" } }` with --json).
 */
export async function runBackupCommand(
  action: BackupCommand['action'],
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: Output,
): Promise<number> {
  const json = wantsJson(argv);
  const fail = (status: number, detail: string) => {
    io.err(json ? `${JSON.stringify({ error: { detail } })}\n` : `keygate: ${action}: ${detail}\n`);
    return status;
  };
  let command: BackupCommand | 'help';
  try {
    command = parseBackupArgs(action, argv, env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(2, `${error.message} (run "keygate keyserver ${action} --help" for the usage)`);
    throw error;
  }
  if (command === 'help') {
    io.out(BACKUP_USAGE);
    return 0;
  }
  const { takeBackup, restoreBackup } = await import('../keyserver/backup/backup-restore.js');
  let header: BackupHeader;
  try {
    header = action === 'backup' ? await takeBackup(command.request, new Date()) : await restoreBackup(command.request);
  } catch (error) {
    const line = firstLine(error);
    return fail(1, line.startsWith(`${action}: `) ? line.slice(action.length + 2) : line);
  }
  const store = describeLocation(command.request.location);
  const summary = {
    action,
    file: command.request.file,
    store,
    createdAt: header.createdAt,
    masterKeyIds: header.masterKeyIds,
    counts: header.counts,
  };
  const rows = Object.entries(header.counts)
    .map(([table, count]) => `${table}:${count}`)
    .join(',');
  const verb = action === 'backup' ? 'backup written' : 'restored';
  io.out(
    json
      ? `${JSON.stringify(summary, null, 2)}\n`
      : `keygate keyserver: ${verb} file=${summary.file} store=${store} created=${header.createdAt} master-keys=${header.masterKeyIds.join(',') || '-'} rows=${rows}\n`,
  );
  return 0;
}

/** An error's first line (a store may begin it with the action's name, which the line already says). */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'failed';
}
