import type { TrustedIssuerSettings, TrustedIssuerView } from '../../client/api-types.js';
import { admin, COMMON_USAGE, defineCommand, print, readSecretFile, table, UsageError } from './command.js';

const issuerRows = (items: readonly TrustedIssuerView[]) =>
  table([
    ['NAME', 'ISSUER', 'PRINCIPAL', 'KEYS'],
    ...items.map((issuer) => [issuer.name, issuer.issuer, issuer.principal, issuer.jwksUri ?? `${issuer.jwks?.keys.length ?? 0} inline`]),
  ]);

const ISSUERS_USAGE = `Usage: keygate issuers <list|show|set|delete> [args] [options]
  list                        the trusted issuers of workload tokens (docs/spec.md §4.24)
  show NAME                   one issuer, as stored
  set NAME --file FILE        creates or replaces NAME from a JSON file of its settings:
                              { issuer, jwksUri | jwks, audiences, algorithms, principal,
                                createPrincipals?, roles?, boundClaims?, requireJti?, maxTokenAge?, leeway? }
  delete NAME                 stops trusting NAME
${COMMON_USAGE}
`;

function settingsFrom(file: string): TrustedIssuerSettings {
  try {
    return JSON.parse(readSecretFile(file, '--file')) as TrustedIssuerSettings;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--file: ${file} is not JSON`);
  }
}

export const issuersCommand = defineCommand(
  {
    name: 'issuers',
    summary: 'list, show, set and delete trusted workload issuers',
    usage: ISSUERS_USAGE,
    options: { file: { type: 'string' } },
  },
  async ({ values, positionals }, ctx) => {
    const [sub = 'list', name] = positionals;
    const api = () => admin(values, ctx.env);
    if (sub === 'list') {
      const page = await api().listIssuers();
      return print(ctx, values.json, page, () => issuerRows(page.items));
    }
    if (name === undefined) throw new UsageError(`issuers ${sub}: NAME is required`);
    if (sub === 'show') {
      const issuer = await api().readIssuer(name);
      return print(ctx, values.json, issuer, () => `${JSON.stringify(issuer, null, 2)}\n`);
    }
    if (sub === 'set') {
      const file = values.file;
      if (typeof file !== 'string') throw new UsageError('issuers set: --file FILE is required');
      const stored = await api().putIssuer(name, settingsFrom(file));
      return print(ctx, values.json, stored, () => issuerRows([stored]));
    }
    if (sub === 'delete') {
      await api().deleteIssuer(name);
      return print(ctx, values.json, { deleted: name }, () => `deleted ${name}\n`);
    }
    throw new UsageError(`issuers: unknown subcommand ${sub}`);
  },
);
