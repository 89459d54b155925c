import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import test from 'ava';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

async function sh(file: string, args: string[], cwd: string, timeout = 240_000): Promise<string> {
  const { stdout } = await exec(file, args, {
    cwd,
    timeout,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return stdout;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
    types: ['node'],
  },
  include: ['index.ts'],
};

/**
 * The package as a user gets it: `npm pack` (which builds dist/ through `prepare`), the tarball
 * installed into an empty project from the npm registry or its local cache, a module importing
 * `keygate` and `keygate/client` type-checked (declarations included) and run (the console served from
 * `dist/console/` included), and the `keygate` bin.
 */
test('the packed package installs, type-checks and runs in a consumer project, without tsx or esbuild', async (t) => {
  t.timeout(600_000);
  const dir = mkdtempSync(join(tmpdir(), 'keygate-package-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await sh(npm, ['pack', '--pack-destination', dir, '--silent'], root, 400_000);
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  t.truthy(tarball, 'npm pack wrote a tarball');

  const project = join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const typesNode = JSON.parse(readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8')).version as string;
  // Scripts are not run: better-sqlite3 would compile its addon; the one already built here is copied.
  await sh(
    npm,
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, tarball!), `@types/node@${typesNode}`],
    project,
  );
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  mkdirSync(join(project, addon, '..'), { recursive: true });
  copyFileSync(join(root, addon), join(project, addon));

  const installed = join(project, 'node_modules');
  t.false(existsSync(join(installed, 'tsx')), 'tsx is not a runtime dependency');
  t.false(existsSync(join(installed, 'esbuild')), 'esbuild is not a runtime dependency');
  t.false(existsSync(join(installed, 'keygate/src')), 'the sources do not ship, the compiled code does');
  t.deepEqual(
    JSON.parse(readFileSync(join(installed, 'keygate/openapi.json'), 'utf8')),
    JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')),
  );
  t.true(existsSync(join(installed, 'keygate/dist/client/keygate-client.browser.js')));
  for (const file of ['index.html', 'console.js', 'console.css', 'favicon.svg'])
    t.true(existsSync(join(installed, `keygate/dist/console/${file}`)), `dist/console/${file}`);
  t.false(existsSync(join(installed, 'keygate/dist/console/main.js')), 'the console ships bundled, not as compiled modules');

  writeFileSync(join(project, 'index.ts'), readFileSync(new URL('./consumer.fixture.txt', import.meta.url), 'utf8'));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  try {
    await sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
  } catch (error) {
    t.fail(`tsc in the consumer project: ${(error as { stdout?: string }).stdout}`);
    return;
  }
  const output = await sh(process.execPath, ['out/index.js'], project, 60_000);
  t.log(output.trim());
  t.deepEqual(JSON.parse(output), {
    keyLen: 32,
    opened: 'hello',
    signature: true,
    refused: 'WRONG_CREDENTIAL',
    code: 'BAD_REQUEST',
    health: true,
    console: true,
  });
  const help = await sh(join(installed, '.bin/keygate'), ['--help'], project, 30_000);
  t.regex(help, /^Usage: keygate <command>/);
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  t.is(await sh(join(installed, '.bin/keygate'), ['--version'], project, 30_000), `keygate ${version}\n`);
});
