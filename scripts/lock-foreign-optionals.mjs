// The registry this project installs from carries only the Linux builds of some packages with
// per-platform optional dependencies (Biome's CLI). `npm install` then leaves the other platforms out
// of package-lock.json, and `npm ci` refuses a lock that misses them. This adds each missing optional
// dependency as a lock entry that names its platform, so npm ci skips it on this one.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = {
  'android-arm64': { os: ['android'], cpu: ['arm64'] },
  'android-x64': { os: ['android'], cpu: ['x64'] },
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'linux-arm64': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-x64': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'win32-arm64': { os: ['win32'], cpu: ['arm64'] },
  'win32-x64': { os: ['win32'], cpu: ['x64'] },
};

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const suffix = Object.keys(PLATFORMS).find((platform) => name.endsWith(`-${platform}`));
    if (lock.packages[key] !== undefined || suffix === undefined) continue;
    lock.packages[key] = { version, ...PLATFORMS[suffix], dev: entry.dev, license: entry.license, optional: true };
    added++;
    if (!path) break;
  }
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync('package-lock.json', `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
process.stdout.write(`lock-foreign-optionals: ${added} entries added\n`);
