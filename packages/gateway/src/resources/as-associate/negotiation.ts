import type { Clock } from '@herald/model';
import type { FastifyInstance } from 'fastify';
import type { ResourceDeps } from '../shared/context.js';
import { registerInBusinessUnitRoutes } from './in-business-unit.js';
import { associateOrders, registerAssociateOrderCreates } from './orders.js';
import { associateQuotes } from './quotes.js';

/** The as-associate forms of quotes and orders (issue 27), beside carts and quote requests (routes.ts). */
export function registerAssociateNegotiationRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  registerInBusinessUnitRoutes(app, associateQuotes, deps);
  registerInBusinessUnitRoutes(app, associateOrders, deps);
  registerAssociateOrderCreates(app, deps, clock);
}
