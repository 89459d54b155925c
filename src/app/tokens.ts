import { token } from '../ports/token.js';
import type {
  AclUseCases,
  CryptoUseCases,
  GroupUseCases,
  HealthUseCases,
  IdentityAdminUseCases,
  KeyUseCases,
  PrincipalUseCases,
  ProofChecker,
  RoleUseCases,
  SessionUseCases,
} from '../use-cases/index.js';
import type { GatewayConfig } from './config.js';

/** Tokens of the composition root's own bindings (the ports' tokens live with the ports). */
export const CONFIG = token<GatewayConfig>('GatewayConfig');
export const SESSION_USE_CASES = token<SessionUseCases>('SessionUseCases');
export const KEY_USE_CASES = token<KeyUseCases>('KeyUseCases');
export const ACL_USE_CASES = token<AclUseCases>('AclUseCases');
export const CRYPTO_USE_CASES = token<CryptoUseCases>('CryptoUseCases');
export const PRINCIPAL_USE_CASES = token<PrincipalUseCases>('PrincipalUseCases');
export const GROUP_USE_CASES = token<GroupUseCases>('GroupUseCases');
export const ROLE_USE_CASES = token<RoleUseCases>('RoleUseCases');
export const HEALTH_USE_CASES = token<HealthUseCases>('HealthUseCases');
export const IDENTITY_ADMIN_USE_CASES = token<IdentityAdminUseCases>('IdentityAdminUseCases');
export const PROOF_CHECKER = token<ProofChecker>('ProofChecker');
