import { token } from '../ports/token.js';
import type {
  AclUseCases,
  AuditTrail,
  AuditUseCases,
  CertificateUseCases,
  CryptoUseCases,
  GroupUseCases,
  HealthUseCases,
  KeyUseCases,
  PolicyUseCases,
  PrincipalUseCases,
  ProofChecker,
  RoleUseCases,
  ServerUseCases,
  SessionUseCases,
  TrustUseCases,
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
export const CERTIFICATE_USE_CASES = token<CertificateUseCases>('CertificateUseCases');
export const TRUST_USE_CASES = token<TrustUseCases>('TrustUseCases');
export const SERVER_USE_CASES = token<ServerUseCases>('ServerUseCases');
export const POLICY_USE_CASES = token<PolicyUseCases>('PolicyUseCases');
export const PROOF_CHECKER = token<ProofChecker>('ProofChecker');
export const AUDIT_TRAIL = token<AuditTrail>('AuditTrail');
export const AUDIT_USE_CASES = token<AuditUseCases>('AuditUseCases');
