import type { RandomSource } from '../model/random-source.js';
import type { KeyServerEngine, NewPrincipal } from './engine.js';

export interface PrincipalSeeding {
  /** Principals to create; one that already exists is left as it is. */
  readonly principals?: readonly NewPrincipal[] | undefined;
  /** Password of the bootstrap user `admin`, created when missing. */
  readonly adminPassword?: string | undefined;
}

/**
 * Seeds an engine at start. With neither principals nor an admin password, and no `admin` yet, it
 * creates `admin` and `guest` with generated passwords (a fresh key server needs two parties to show
 * a grant) and answers them, to be shown once; otherwise it answers undefined. Seeding a durable
 * store again on restart changes nothing.
 */
export async function seedPrincipals(engine: KeyServerEngine, seeding: PrincipalSeeding, random: RandomSource): Promise<Record<string, string> | undefined> {
  for (const principal of seeding.principals ?? []) {
    if (!(await engine.hasPrincipal(principal.name))) await engine.createPrincipal(principal);
  }
  let adminPassword = seeding.adminPassword;
  let generated: Record<string, string> | undefined;
  if (adminPassword === undefined && seeding.principals === undefined && !(await engine.hasPrincipal('admin'))) {
    generated = { admin: generatePassword(random), guest: generatePassword(random) };
    adminPassword = generated.admin;
    if (!(await engine.hasPrincipal('guest'))) await engine.createPrincipal({ name: 'guest', kind: 'user', password: generated.guest, roles: ['user'] });
  }
  if (adminPassword !== undefined && !(await engine.hasPrincipal('admin'))) {
    await engine.createPrincipal({ name: 'admin', kind: 'user', password: adminPassword, roles: ['admin'] });
  }
  return generated;
}

function generatePassword(random: RandomSource): string {
  return Buffer.from(random.bytes(18)).toString('base64url');
}
