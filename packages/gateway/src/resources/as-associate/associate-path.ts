import type { FastifyRequest } from 'fastify';
import type { AssociateScope } from '../associates/require-permission.js';

/** The reference's as-associate root (resources/as-associate.raml): `{associateId}` acts. */
export const AS_ASSOCIATE = '/:projectKey/as-associate/:associateId';
/** Resources of one unit: `…/in-business-unit/key={businessUnitKey}/{carts|orders|quote-requests|quotes}`. */
export const IN_BUSINESS_UNIT = `${AS_ASSOCIATE}/in-business-unit/key=:businessUnitKey`;

export interface AssociatePathParams {
  projectKey: string;
  associateId: string;
  businessUnitKey?: string;
  id?: string;
  key?: string;
}

/** Who acts in which unit, from an `IN_BUSINESS_UNIT` path (what requirePermission takes). */
export function associateScopeOf(request: FastifyRequest): AssociateScope {
  const params = request.params as AssociatePathParams;
  if (params.businessUnitKey === undefined) throw new Error('associateScopeOf() used on a route without a business unit');
  return { projectKey: params.projectKey, associateId: params.associateId, businessUnitKey: params.businessUnitKey };
}
