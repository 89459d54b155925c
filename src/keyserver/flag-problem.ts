/**
 * The one line that names what is wrong with a command line `node:util`'s `parseArgs` refused (an
 * unknown option, an option without its value, an argument where none is taken), for every
 * `keygate keyserver` command.
 */
export function flagProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const flag = /'(-[^']*)'/.exec(message ?? '')?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${flag}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `option ${flag.split(' ')[0]} needs a value`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${/'([^']*)'/.exec(message ?? '')?.[1] ?? ''}`;
  return (message ?? 'bad arguments').split('\n')[0]!;
}
