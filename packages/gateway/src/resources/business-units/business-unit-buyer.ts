import type { KeyReference } from '@herald/model';
import type { Locator } from '@herald/store';
import { requireAssociate, type BusinessUnitLookup } from './associates.js';

/**
 * §1.4: carts and quote requests that reference a business unit validate the customer's role in
 * it: the acting customer (a customer token) must be an associate of the unit (403
 * `AssociateMissingPermission`). An API client acts for the merchant, not for a customer, so its
 * requests are not limited by associate roles; an anonymous session is nobody's associate.
 */
export async function requireBusinessUnitBuyer(
  lookup: BusinessUnitLookup,
  projectKey: string,
  businessUnit: KeyReference<'business-unit'> | undefined,
  auth: { customerId?: string; anonymousId?: string } | undefined,
): Promise<void> {
  if (businessUnit === undefined || auth === undefined) return;
  const customerId = auth.customerId ?? (auth.anonymousId === undefined ? undefined : '');
  if (customerId === undefined) return;
  const locator: Locator = { key: businessUnit.key };
  await requireAssociate(lookup, projectKey, locator, customerId);
}
