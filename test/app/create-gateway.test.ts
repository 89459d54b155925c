import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { createGateway } from '../../src/app/create-gateway.js';

test('an embedding service mounts app.callback() on its own server', async (t) => {
  const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: 'embedded-admin' } }, { logger: new MemoryLogger() });
  const server = createServer(gateway.app.callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: 'embedded-admin' }),
  });
  t.is(login.status, 200);
  t.is(gateway.generatedPasswords, undefined);
  server.close();
  await gateway.close();
});

test('with neither seed nor admin password, admin and guest get generated passwords that work', async (t) => {
  const gateway = await createGateway({}, { logger: new MemoryLogger() });
  const passwords = gateway.generatedPasswords!;
  t.deepEqual(Object.keys(passwords).sort(), ['admin', 'guest']);
  t.not(passwords.admin, passwords.guest);
  const { url } = await gateway.listen(0, '127.0.0.1');
  for (const [user, password] of Object.entries(passwords)) {
    const login = await fetch(`${url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user, password }),
    });
    t.is(login.status, 200, user);
  }
  await gateway.close();
});

test('a bad configuration object is refused with a message naming the setting', async (t) => {
  await t.throwsAsync(createGateway({ port: -1 }), { message: /port/ });
});
