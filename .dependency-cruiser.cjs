/**
 * The layers (docs/architecture.md): src/wire, src/crypto <- src/domain <- src/ports <- src/use-cases <- src/transports;
 * src/adapters implement ports; src/app wires everything; src/keyserver stands on its own and shares
 * only src/wire (what crosses between them) and src/crypto (the arithmetic both sides check) with the gateway. `npm run lint` runs these rules; `npm test` runs the linter.
 */
const OURS = '^src/(domain|wire|crypto|ports|use-cases|transports|adapters|app|keyserver|cli|client|console)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere: each module can be read (and loaded) before the ones that use it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain decides, it does no wiring: it imports none of our folders but src/wire and src/crypto.',
      from: { path: '^src/domain/' },
      to: { path: OURS, pathNot: '^src/(domain|wire|crypto)/' },
    },
    {
      name: 'domain-uses-no-package',
      severity: 'error',
      comment:
        'src/domain is pure computation: besides itself, src/wire and src/crypto it imports only node built-ins (node:crypto), no package (zod, koa, a driver).',
      from: { path: '^src/domain/' },
      to: { dependencyTypesNot: ['core'], pathNot: '^src/(domain|wire|crypto)/' },
    },
    {
      name: 'wire-stands-alone',
      severity: 'error',
      comment: 'src/wire is what crosses between gateway and key server: it imports nothing of ours.',
      from: { path: '^src/wire/' },
      to: { path: OURS, pathNot: '^src/wire/' },
    },
    {
      name: 'crypto-stands-alone',
      severity: 'error',
      comment:
        'src/crypto is arithmetic both sides share (SRP-6a, P-256 points, JWK thumbprints, sender keys, the RandomSource both draw from): it imports nothing of ours.',
      from: { path: '^src/crypto/' },
      to: { path: OURS, pathNot: '^src/crypto/' },
    },
    {
      name: 'ports-see-only-the-domain',
      severity: 'error',
      comment: 'Ports are stated in the words of the domain (and the wire), nothing else of ours.',
      from: { path: '^src/ports/' },
      to: { path: OURS, pathNot: '^src/(ports|domain|wire|crypto)/' },
    },
    {
      name: 'use-cases-know-no-mechanism',
      severity: 'error',
      comment: 'Use cases speak to ports: no adapter, transport, app wiring, Koa or inversify.',
      from: { path: '^src/use-cases/' },
      to: { path: ['^src/(adapters|transports|app|keyserver|cli)/', '(^|/)node_modules/(koa|@koa/[^/]+|@types/koa[^/]*|inversify)/'] },
    },
    {
      name: 'transports-hold-no-adapters',
      severity: 'error',
      comment: 'Transports reach the world through use cases and ports, never an adapter (nor the app).',
      from: { path: '^src/transports/' },
      to: { path: '^src/(adapters|app|keyserver)/' },
    },
    {
      name: 'adapters-are-leaves',
      severity: 'error',
      comment: 'Adapters implement ports; they call no transport, no use case and no app wiring.',
      from: { path: '^src/adapters/' },
      to: { path: '^src/(transports|app|use-cases)/' },
    },
    {
      name: 'keyserver-stands-alone',
      severity: 'error',
      comment: 'The key server is a part of its own: it shares only src/wire and src/crypto with the gateway.',
      from: { path: '^src/keyserver/' },
      to: { path: OURS, pathNot: '^src/(keyserver|wire|crypto)/' },
    },
    {
      name: 'console-is-a-client',
      comment: 'The operator console is a browser page over /api: it uses keygate/client (and the wire views), nothing of the server.',
      severity: 'error',
      from: { path: '^src/console/' },
      to: { path: OURS, pathNot: '^src/(console|client|wire)/' },
    },
    {
      name: 'no-one-imports-the-console',
      comment: 'The console is bundled for the browser (scripts/bundle-client.ts), never imported by the server.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/console/' },
      to: { path: '^src/console/' },
    },
    {
      name: 'inversify-only-in-app',
      severity: 'error',
      comment: 'The container (inversify) is wiring: it lives in src/app alone.',
      from: { path: '^src/', pathNot: '^src/app/' },
      to: { path: '(^|/)node_modules/inversify/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
