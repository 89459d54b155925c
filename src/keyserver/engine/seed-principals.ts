import type { RandomSource } from '../../crypto/random-source.js';
import { isKeyServerError } from '../model/key-server-errors.js';
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
export async function seedPrincipals(
  engine: KeyServerEngine,
  seeding: PrincipalSeeding,
  random: RandomSource,
): Promise<Record<string, string> | undefined> {
  for (const principal of seeding.principals ?? []) await createMissing(engine, principal);
  let adminPassword = seeding.adminPassword;
  let generated: Record<string, string> | undefined;
  if (adminPassword === undefined && seeding.principals === undefined && !(await engine.hasPrincipal('admin'))) {
    generated = { admin: generatePassword(random), guest: generatePassword(random) };
    adminPassword = generated.admin;
    await createMissing(engine, { name: 'guest', kind: 'user', password: generated.guest, roles: ['user'] });
  }
  if (adminPassword !== undefined) await createMissing(engine, { name: 'admin', kind: 'user', password: adminPassword, roles: ['admin'] });
  return generated;
}

/**
 * Creates the principal unless it exists. Key servers sharing one store (PostgreSQL) may start
 * together: one that finds the principal made by another meanwhile leaves it as it is.
 */
async function createMissing(engine: KeyServerEngine, principal: NewPrincipal): Promise<void> {
  if (await engine.hasPrincipal(principal.name)) return;
  try {
    await engine.createPrincipal(principal);
  } catch (error) {
    if (!(isKeyServerError(error) && error.code === 'CONFLICT' && (await engine.hasPrincipal(principal.name)))) throw error;
  }
}

function generatePassword(random: RandomSource): string {
  return Buffer.from(random.bytes(18)).toString('base64url');
}
