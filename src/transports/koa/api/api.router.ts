import type { GatewayServices } from '../../../use-cases/index.js';
import { aclRoutes } from './acl.routes.js';
import { aliasRoutes } from './aliases.routes.js';
import type { ApiRoute } from './api-route.js';
import { auditRoutes } from './audit.routes.js';
import { certificateRoutes } from './certificates.routes.js';
import { cryptoRoutes } from './crypto.routes.js';
import { groupRoutes } from './groups.routes.js';
import { healthRoutes } from './health.routes.js';
import { keyInventoryRoutes } from './key-inventory.routes.js';
import { keyRoutes } from './keys.routes.js';
import { policyRoutes } from './policy.routes.js';
import { principalRoutes } from './principals.routes.js';
import { roleRoutes } from './roles.routes.js';
import { serverRoutes } from './server.routes.js';
import { sessionRoutes } from './sessions.routes.js';
import { signingRoutes } from './signing.routes.js';
import { trustRoutes } from './trust.routes.js';

/** True for the paths of the /api surface. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** Every /api operation, family by family: the one table routes and the OpenAPI document come from. */
export function apiRouteTable(services: GatewayServices): ApiRoute[] {
  return [
    ...sessionRoutes(services),
    ...cryptoRoutes(services),
    ...signingRoutes(services),
    ...keyRoutes(services),
    ...keyInventoryRoutes(services),
    ...aclRoutes(services),
    ...aliasRoutes(services),
    ...principalRoutes(services),
    ...groupRoutes(services),
    ...roleRoutes(services),
    ...certificateRoutes(services),
    ...trustRoutes(services),
    ...serverRoutes(services),
    ...policyRoutes(services),
    ...auditRoutes(services),
    ...healthRoutes(services),
  ];
}
