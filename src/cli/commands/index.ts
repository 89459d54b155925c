import { aliasesCommand } from './alias-commands.js';
import { auditCommand } from './audit-commands.js';
import type { OperatorCommand } from './command.js';
import { datakeyCommand } from './datakey-command.js';
import { groupsCommand, principalsCommand, rolesCommand } from './directory-commands.js';
import { decryptFileCommand, encryptFileCommand } from './file-commands.js';
import { issuersCommand } from './issuer-commands.js';
import { keysCommand } from './key-commands.js';
import { healthCommand, loginCommand, whoamiCommand } from './session-commands.js';
import { signCommand, signJwtCommand, verifyCommand } from './signing-commands.js';

/** The operator's commands, which talk to a running gateway through keygate/client, the same client any program uses. */
export const OPERATOR_COMMANDS: readonly OperatorCommand[] = [
  loginCommand,
  whoamiCommand,
  healthCommand,
  principalsCommand,
  groupsCommand,
  rolesCommand,
  issuersCommand,
  keysCommand,
  aliasesCommand,
  signCommand,
  verifyCommand,
  signJwtCommand,
  datakeyCommand,
  encryptFileCommand,
  decryptFileCommand,
  auditCommand,
];

/** `  name  summary` lines for the top-level usage. */
export function operatorCommandLines(indent: string): string {
  const width = Math.max(...OPERATOR_COMMANDS.map((command) => command.name.length));
  return OPERATOR_COMMANDS.map((command) => `${indent}${command.name.padEnd(width + 2)}${command.summary}\n`).join('');
}

export type { OperatorCommand } from './command.js';
