import { CommandFailure } from './command.js';

const ENTER = new Set(['\r', '\n']);
const BACKSPACE = new Set(['\u007f', '\b']);
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';

/**
 * A password from standard input: on a terminal, prompted for on stderr with echo off (raw mode, read
 * up to Enter, Backspace erases, Ctrl-C abandons); otherwise the first line of what is piped in.
 */
export function readPassword(stdin: NodeJS.ReadStream = process.stdin, stderr: NodeJS.WriteStream = process.stderr): Promise<string> {
  return stdin.isTTY ? promptOnTerminal(stdin, stderr) : firstLine(stdin);
}

function promptOnTerminal(stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (outcome: () => void) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      outcome();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (ENTER.has(char) || (char === CTRL_D && typed === '')) return finish(() => resolve(typed));
        if (char === CTRL_C) return finish(() => reject(new CommandFailure('password prompt interrupted')));
        if (BACKSPACE.has(char)) typed = [...typed].slice(0, -1).join('');
        else if (char >= ' ') typed += char;
      }
    };
    // Echo goes off before the prompt shows: nothing typed as soon as it appears is echoed.
    stdin.setEncoding('utf8');
    stdin.setRawMode(true);
    stderr.write('Password: ');
    stdin.resume();
    stdin.on('data', onData);
  });
}

async function firstLine(stdin: NodeJS.ReadStream): Promise<string> {
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) {
    text += chunk as string;
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.replace(/\r$/, '');
}
