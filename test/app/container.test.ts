import { readdirSync } from 'node:fs';
import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { openAdapters } from '../../src/app/adapters.js';
import { parseGatewayConfig } from '../../src/app/config/config.js';
import { buildContainer, resolveServices } from '../../src/app/container.js';
import * as tokens from '../../src/app/tokens.js';
import { ADAPTER_TOKENS, ALL_TOKENS, SERVICE_TOKENS } from '../../src/app/tokens.js';
import { importSource } from '../_support/source-files.js';

async function started(t: { teardown(fn: () => Promise<void>): void }) {
  const config = parseGatewayConfig({});
  const adapters = await openAdapters(config, { clock: new ManualClock(), logger: new MemoryLogger() });
  t.teardown(async () => {
    await adapters.sessionStore.close();
    await adapters.replayCache.close();
    await adapters.auditLog.close();
    await adapters.keyServer.close();
  });
  return { container: buildContainer(config, adapters), adapters };
}

/** Every token symbol a module exports, directly or in a record of tokens. */
function exportedTokens(module: Record<string, unknown>): symbol[] {
  return Object.values(module).flatMap((value) =>
    typeof value === 'symbol'
      ? [value]
      : value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.values(value).filter((inner) => typeof inner === 'symbol')
        : [],
  );
}

test('the container resolves every token, each to one shared instance', async (t) => {
  const { container } = await started(t);
  t.true(ALL_TOKENS.length > 0);
  for (const id of ALL_TOKENS) {
    const value = container.get(id);
    t.truthy(value, id.description);
    t.is(container.get(id), value, `${id.description} is a singleton`);
  }
});

test('every token declared in tokens.ts and by the ports is in the list the container binds', async (t) => {
  const portsDir = new URL('../../src/ports/', import.meta.url);
  const portModules = await Promise.all(
    readdirSync(portsDir)
      .filter((file) => file.endsWith('.port.ts'))
      .map((file) => importSource(new URL(file, portsDir))),
  );
  const declared = new Set([...exportedTokens(tokens), ...portModules.flatMap(exportedTokens)]);
  t.true(declared.size >= ALL_TOKENS.length);
  for (const id of declared) t.true(ALL_TOKENS.includes(id), `${id.description} is bound`);
  t.is(new Set(ALL_TOKENS).size, ALL_TOKENS.length, 'no token is listed twice');
});

test('each port resolves to the adapter openAdapters chose, and the services object is the use-case tokens, resolved', async (t) => {
  const { container, adapters } = await started(t);
  // The key server and the audit log are bound behind a health observer (a Proxy over the chosen
  // adapter that reports call outcomes to the health check); every other port is the adapter itself.
  const observed = new Set(['keyServer', 'auditLog']);
  for (const [key, id] of Object.entries(ADAPTER_TOKENS)) {
    const chosen = adapters[key as keyof typeof ADAPTER_TOKENS];
    const bound = container.get(id) as object;
    if (!observed.has(key)) {
      t.is(bound, chosen, key);
      continue;
    }
    t.not(bound, chosen, `${key} is observed`);
    for (const member of Object.getOwnPropertyNames(Object.getPrototypeOf(chosen)).filter((name) => name !== 'constructor')) {
      t.is(
        typeof (bound as Record<string, unknown>)[member],
        typeof (chosen as unknown as Record<string, unknown>)[member],
        `${key}.${member}`,
      );
    }
  }
  const services = resolveServices(container);
  t.deepEqual(Object.keys(services).sort(), Object.keys(SERVICE_TOKENS).sort());
  for (const [key, id] of Object.entries(SERVICE_TOKENS))
    t.is<unknown, unknown>(services[key as keyof typeof services], container.get(id), key);
});
