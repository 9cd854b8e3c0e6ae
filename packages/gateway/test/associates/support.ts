/**
 * Fixtures of the associate permission tests: a merchant API client, customers as associates, and
 * the as-associate paths (reference: resources/as-associate.raml).
 */
import { expect } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { apiClient, customerClient, type Client, type Json } from '../business-units/support.js';

export type { Client, Json };

export const ASSOCIATE_SCOPES = ['manage_business_units', 'manage_associate_roles', 'manage_orders', 'manage_quote_requests'] as const;

export function merchantOf(gateway: TestGateway, projectKey: string): Promise<Client> {
  return apiClient(gateway, projectKey, ASSOCIATE_SCOPES);
}

/** A new customer; its id is what the as-associate paths name. */
export async function newCustomer(gateway: TestGateway, projectKey: string, scopes: readonly string[] = ['manage_my_business_units']): Promise<Client> {
  return customerClient(gateway, projectKey, scopes);
}

/** `/as-associate/{associateId}/in-business-unit/key={unit}/{rest}` (after the project key). */
export function inUnit(associate: Client | string, unit: string, rest: string): string {
  const id = typeof associate === 'string' ? associate : associate.customerId;
  return `/as-associate/${id}/in-business-unit/key=${unit}/${rest}`;
}

/** `/as-associate/{associateId}/business-units{rest}`. */
export function asAssociateUnits(associate: Client, rest = ''): string {
  return `/as-associate/${associate.customerId}/business-units${rest}`;
}

export const assignment = (key: string, inheritance: 'Enabled' | 'Disabled' = 'Disabled'): Json => ({
  associateRole: { typeId: 'associate-role', key },
  inheritance,
});

export const associate = (customer: Client, ...assignments: Json[]): Json => ({
  associateRoleAssignments: assignments,
  customer: { typeId: 'customer', id: customer.customerId },
});

export const lineItem = { sku: 'sku-1', name: { en: 'Widget' }, quantity: 2, externalPrice: { currencyCode: 'EUR', centAmount: 1000 } };

/** The reference's AssociateMissingPermissionError, with its fields. */
export function expectMissingPermission(
  answer: { status: number; body: Json },
  expected: { associate: Client; unit: string; permissions: string[]; onBehalfOf?: Client },
): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expect(answer.body).toMatchObject({ statusCode: 403, errors: [{ code: 'AssociateMissingPermission' }] });
  const error = answer.body.errors[0] as Json;
  expect(error.associate).toEqual({ typeId: 'customer', id: expected.associate.customerId });
  expect(error.businessUnit).toEqual({ typeId: 'business-unit', key: expected.unit });
  expect(error.permissions).toEqual(expected.permissions);
  if (expected.onBehalfOf === undefined) expect(error.associateOnBehalf).toBeUndefined();
  else expect(error.associateOnBehalf).toEqual({ typeId: 'customer', id: expected.onBehalfOf.customerId });
}
