import type { FastifyInstance } from 'fastify';
import type { BusinessUnitService } from '../business-units/service.js';
import type { ResourceDeps } from '../shared/context.js';
import { registerAssociateBusinessUnitRoutes } from './business-units.js';
import { associateCarts } from './carts.js';
import { registerInBusinessUnitRoutes } from './in-business-unit.js';
import { associateQuoteRequests } from './quote-requests.js';

/**
 * The as-associate endpoints (reference: resources/as-associate.raml), mounted at
 * `/{projectKey}/as-associate/{associateId}` (associate-path.ts): the associate's business units,
 * and per unit (`/in-business-unit/key={businessUnitKey}/…`) its carts and quote requests; orders
 * and quotes add their `InBusinessUnitResource` here the same way.
 */
export function registerAsAssociateRoutes(app: FastifyInstance, deps: ResourceDeps, businessUnits: BusinessUnitService): void {
  registerAssociateBusinessUnitRoutes(app, businessUnits, deps.documents);
  registerInBusinessUnitRoutes(app, associateCarts, deps);
  registerInBusinessUnitRoutes(app, associateQuoteRequests, deps);
}
