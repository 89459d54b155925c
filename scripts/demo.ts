import { parseArgs } from 'node:util';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { startDemoServer } from './demo-server.js';

const USAGE = `Usage: npm run demo -- [--gateway URL] [--port N] [--gateway-port N]

Serves the browser client's demo page on http://127.0.0.1:<port>/ (default 5173).
  --gateway URL      the gateway the page talks to; it must list the page's origin in
                     TE_GATEWAY_CORS_ORIGINS. Without it, a gateway with an embedded key server is
                     started here on http://127.0.0.1:<gateway-port>/ (default 8787), allowing the
                     page's origin, with the users "admin" and "guest" and generated passwords.
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      gateway: { type: 'string' },
      port: { type: 'string', default: '5173' },
      'gateway-port': { type: 'string', default: '8787' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = portNumber(values.port, '--port');
  const pageOrigin = `http://127.0.0.1:${port}`;
  let gateway: Gateway | undefined;
  let gatewayUrl = values.gateway;
  if (gatewayUrl === undefined) {
    gateway = await createGateway({ corsOrigins: [pageOrigin], logLevel: 'warn', keyServer: { kind: 'embedded' } });
    gatewayUrl = (await gateway.listen(portNumber(values['gateway-port'], '--gateway-port'), '127.0.0.1')).url;
  }
  const page = await startDemoServer({ gatewayUrl, port });
  const lines = [`keygate demo`, `  page:    ${page.url}`, `  gateway: ${gatewayUrl}`];
  if (gateway) {
    for (const [user, password] of Object.entries(gateway.generatedPasswords ?? {})) lines.push(`  user "${user}", password: ${password}`);
  } else {
    lines.push(`  the gateway must allow the page's origin: TE_GATEWAY_CORS_ORIGINS=${pageOrigin}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => {
    void Promise.all([page.close(), gateway?.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function portNumber(raw: string | undefined, flag: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65_535) throw new Error(`${flag}: expected a port from 1 to 65535, got "${raw}"`);
  return value;
}

main().catch((error: unknown) => {
  process.stderr.write(`keygate demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
