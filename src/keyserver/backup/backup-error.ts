/** A backup file or a restore refused: the message is one line, fit to print after the file's name. */
export class BackupError extends Error {
  override name = 'BackupError';
}
